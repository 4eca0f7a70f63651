/**
 * Holistic base cases of the apb sample (split holistic_planning). Each one also carries the
 * distractor tools its holistic_tool_extraneous variant adds (`distractorLevel` of them).
 * Every task, tool and value here is fictional and written for apb.
 */
import { call, openai, tool } from './lib.mjs';

// ---------------------------------------------------------------------------------------------
// Shared tool definitions (reused by the unsolvable and efficiency variants of a base).
// ---------------------------------------------------------------------------------------------

export const TRAVEL_TOOLS = [
  tool('search_flights', 'Searches bookable flights for one date and route. Returns offers with flight_id, times (local), stops and fare.', {
    origin: 'string: IATA code of the departure airport, e.g. LIS',
    destination: 'string: IATA code of the arrival airport',
    date: 'string: Departure date, YYYY-MM-DD',
    cabin: 'string[economy|premium_economy|business]: Cabin class',
    'max_stops?': 'integer: Maximum number of stops (0 = direct only)',
    'max_price?': 'number: Upper fare limit per traveller',
    'currency?': 'string: ISO 4217 currency of max_price and of the returned fares',
  }),
  tool('get_fare_rules', 'Returns baggage allowance, change and refund conditions of one flight offer.', {
    flight_id: 'string: Offer id returned by search_flights',
  }),
  tool('book_flight', 'Books a flight offer for a traveller profile and returns the booking reference.', {
    flight_id: 'string: Offer id returned by search_flights',
    traveller_profile_id: 'string: Traveller profile id, e.g. TP-1234',
  }),
  tool('add_checked_bag', 'Adds checked bags to an existing flight booking.', {
    booking_reference: 'string: Booking reference returned by book_flight',
    bags: 'integer: Number of 23 kg bags to add',
  }),
  tool('send_email', 'Sends an email from the travel desk mailbox.', {
    to: 'string: Recipient address',
    subject: 'string: Subject line',
    body: 'string: Plain-text body',
  }),
  tool('search_hotels', 'Searches hotels in a city for a stay.', {
    city: 'string: City name',
    check_in: 'string: YYYY-MM-DD',
    check_out: 'string: YYYY-MM-DD',
    'max_price_per_night?': 'number: Upper nightly rate in EUR',
  }),
  tool('get_weather_forecast', 'Returns the daily weather forecast for a city.', {
    city: 'string: City name',
    date: 'string: YYYY-MM-DD',
  }),
  tool('convert_currency', 'Converts an amount between currencies at today\'s rate.', {
    amount: 'number: Amount to convert',
    from_currency: 'string: ISO 4217 code',
    to_currency: 'string: ISO 4217 code',
  }),
];

export const RETURNS_TOOLS = [
  tool('get_order_details', 'Returns an order with its lines (sku, price, status), delivery date, payment method and customer contact.', {
    order_id: 'string: Order id, e.g. BC-10001',
  }),
  tool('check_return_eligibility', 'Checks whether one order line can be returned under the returns policy and until when.', {
    order_id: 'string: Order id',
    sku: 'string: SKU of the order line',
    reason: 'string[damaged|wrong_item|wrong_size|not_as_described|changed_mind]: Return reason',
  }),
  tool('create_return_label', 'Creates a prepaid return label for one order line and returns its label_id and download link.', {
    order_id: 'string: Order id',
    sku: 'string: SKU of the line being returned',
  }),
  tool('issue_refund', 'Refunds one order line.', {
    order_id: 'string: Order id',
    sku: 'string: SKU of the refunded line',
    method: 'string[original_payment|store_credit]: Where the money goes',
  }),
  tool('reply_to_ticket', 'Posts a public reply on a customer support ticket.', {
    ticket_id: 'string: Ticket id, e.g. T-10001',
    message: 'string: Reply text shown to the customer',
  }),
  tool('get_customer_profile', 'Returns a customer\'s profile, loyalty tier and saved addresses.', {
    customer_id: 'string: Customer id',
  }),
  tool('apply_coupon', 'Applies a coupon code to an open (unshipped) order.', {
    order_id: 'string: Order id',
    coupon_code: 'string: Coupon code',
  }),
  tool('track_shipment', 'Returns the carrier tracking events of a parcel.', {
    tracking_number: 'string: Carrier tracking number',
  }),
  tool('update_shipping_address', 'Changes the delivery address of an order that has not shipped yet.', {
    order_id: 'string: Order id',
    address: 'string: Full postal address',
  }),
];

export const SHEET_TOOLS = [
  tool('load_csv', 'Loads an attached CSV file into a table and returns its table_id and column names.', {
    file_name: 'string: Name of the attached file',
    has_header: 'boolean: Whether the first row holds column names',
  }),
  tool('filter_rows', 'Keeps the rows of a table that satisfy one condition; returns a new table_id.', {
    table_id: 'string: Input table',
    column: 'string: Column to test',
    operator: 'string[equals|not_equals|greater_than|less_than|contains]: Comparison',
    value: 'string: Value to compare with (numbers as text)',
  }),
  tool('aggregate', 'Groups a table by one column and aggregates another; returns a new table_id with the columns <group_by> and <column>_<function>.', {
    table_id: 'string: Input table',
    group_by: 'string: Column to group by',
    column: 'string: Column to aggregate',
    function: 'string[sum|mean|count|min|max]: Aggregate function',
  }),
  tool('sort_rows', 'Sorts a table by one column; returns a new table_id.', {
    table_id: 'string: Input table',
    column: 'string: Sort key',
    descending: 'boolean: Sort from largest to smallest',
  }),
  tool('create_sheet', 'Adds an empty sheet to a workbook.', {
    workbook_id: 'string: Workbook id',
    sheet_name: 'string: Name of the new sheet',
  }),
  tool('insert_chart', 'Draws a chart of a table into an existing sheet.', {
    workbook_id: 'string: Workbook id',
    sheet_name: 'string: Target sheet',
    table_id: 'string: Table holding the data',
    chart_type: 'string[bar|line|pie]: Chart type',
    x_column: 'string: Column for categories',
    y_column: 'string: Column for values',
    title: 'string: Chart title',
  }),
  tool('export_pdf', 'Exports one sheet of a workbook as a PDF and returns a download link.', {
    workbook_id: 'string: Workbook id',
    sheet_name: 'string: Sheet to export',
  }),
  tool('post_message', 'Posts a message in a team chat channel.', {
    channel: 'string: Channel name, e.g. #general',
    text: 'string: Message text',
  }),
];

export const INCIDENT_TOOLS = [
  tool('get_alert', 'Returns an alert: service, environment, condition, start time and current value.', {
    alert_id: 'string: Alert id, e.g. ALR-1000',
  }),
  tool('list_deployments', 'Lists deployments of a service since a given time, newest first, with version, time, author and health mark.', {
    service: 'string: Service name',
    environment: 'string[production|staging]: Environment',
    since: 'string: ISO 8601 timestamp (UTC)',
  }),
  tool('search_logs', 'Searches a service\'s logs in a time window.', {
    service: 'string: Service name',
    environment: 'string[production|staging]: Environment',
    query: 'string: Search expression, e.g. status>=500',
    start_time: 'string: ISO 8601 timestamp (UTC)',
    end_time: 'string: ISO 8601 timestamp (UTC)',
    'level?': 'string[error|warn|info]: Minimum log level',
  }),
  tool('get_metrics', 'Returns a time series of one service metric.', {
    service: 'string: Service name',
    metric: 'string[error_rate|p95_latency|cpu|memory]: Metric',
    start_time: 'string: ISO 8601 timestamp (UTC)',
    end_time: 'string: ISO 8601 timestamp (UTC)',
  }),
  tool('rollback_deployment', 'Redeploys an earlier deployment of a service and returns the new deployment id.', {
    service: 'string: Service name',
    environment: 'string[production|staging]: Environment',
    target_deployment_id: 'string: Deployment to return to, e.g. dep-1234',
  }),
  tool('restart_pods', 'Restarts every pod of a service, one at a time.', {
    service: 'string: Service name',
    environment: 'string[production|staging]: Environment',
  }),
  tool('scale_service', 'Sets the replica count of a service.', {
    service: 'string: Service name',
    environment: 'string[production|staging]: Environment',
    replicas: 'integer: Desired replica count',
  }),
  tool('post_incident_update', 'Posts a timestamped update for an incident in a chat channel.', {
    channel: 'string: Channel name',
    incident_id: 'string: Incident id, e.g. INC-1000',
    message: 'string: Update text',
  }),
  tool('create_jira_ticket', 'Opens a ticket in an issue tracker project.', {
    project: 'string: Project key',
    summary: 'string: One-line summary',
    description: 'string: Details',
  }),
  tool('page_oncall', 'Pages the on-call engineer of a team.', {
    team: 'string: Team name',
    message: 'string: Page text',
  }),
];

export const CALENDAR_TOOLS = [
  tool('lookup_contact', 'Finds a colleague in the company directory by full name; returns email, team and office.', {
    name: 'string: Full name',
  }),
  tool(
    'find_common_free_slots',
    'Finds slots of the given length when every attendee and the organiser (always included) are free. Returns candidate slots, earliest first, with start and end in ISO 8601.',
    {
      attendee_emails: 'string[]: Email addresses of the attendees',
      duration_minutes: 'integer: Meeting length in minutes',
      range_start: 'string: First day to consider, YYYY-MM-DD',
      range_end: 'string: Last day to consider, YYYY-MM-DD',
      working_hours_start: 'string: Earliest start time each day, HH:MM',
      working_hours_end: 'string: Latest end time each day, HH:MM',
      timezone: 'string: IANA time zone, e.g. Europe/Berlin',
    },
  ),
  tool('book_room', 'Books a free meeting room for a time span; returns the room name and booking id.', {
    start: 'string: ISO 8601 start',
    end: 'string: ISO 8601 end',
    capacity: 'integer: Seats needed',
    'floor?': 'integer: Preferred floor',
  }),
  tool('create_calendar_event', 'Creates an event in the organiser\'s calendar and sends invitations to the attendees.', {
    title: 'string: Event title',
    start: 'string: ISO 8601 start',
    end: 'string: ISO 8601 end',
    attendee_emails: 'string[]: Email addresses to invite',
    'location?': 'string: Room or address',
    'description?': 'string: Event description shown in the invitation',
  }),
  tool('send_email', 'Sends an email from the organiser\'s mailbox.', {
    to: 'string[]: Recipient addresses',
    subject: 'string: Subject line',
    body: 'string: Plain-text body',
  }),
  tool('list_events', 'Lists the organiser\'s events on one day.', {
    date: 'string: YYYY-MM-DD',
  }),
  tool('cancel_event', 'Cancels an event and notifies its attendees.', {
    event_id: 'string: Event id',
  }),
];

export const CLINIC_TOOLS = [
  tool('find_patient', 'Finds a patient by full name and date of birth; returns patient_id and contact details on file.', {
    full_name: 'string: Patient\'s full name',
    date_of_birth: 'string: YYYY-MM-DD',
  }),
  tool('check_insurance_coverage', 'Checks whether an insurance plan covers a service type and returns the co-payment.', {
    insurer: 'string: Insurer name',
    member_id: 'string: Member id on the insurance card',
    service_type: 'string[primary_care|dermatology|cardiology|physiotherapy]: Service',
  }),
  tool('list_available_slots', 'Lists free appointment slots of a clinician in a date range, earliest first.', {
    clinician_name: 'string: Clinician\'s name without title',
    from_date: 'string: YYYY-MM-DD',
    to_date: 'string: YYYY-MM-DD',
    'time_of_day?': 'string[any|morning|afternoon]: Part of the day',
  }),
  tool('book_appointment', 'Books a slot for a patient and returns the appointment details.', {
    patient_id: 'string: Patient id from find_patient',
    slot_id: 'string: Slot id from list_available_slots',
    visit_type: 'string[new_patient|follow_up]: Visit type',
  }),
  tool('send_sms', 'Texts a patient on the mobile number on file.', {
    patient_id: 'string: Patient id',
    message: 'string: Text of the SMS',
  }),
  tool('get_clinician_profile', 'Returns a clinician\'s specialty, locations and working days.', {
    clinician_name: 'string: Clinician\'s name without title',
  }),
  tool('cancel_appointment', 'Cancels an appointment.', {
    appointment_id: 'string: Appointment id',
  }),
  tool('request_prescription_refill', 'Sends a refill request to the patient\'s prescriber.', {
    patient_id: 'string: Patient id',
    medication: 'string: Medication name and strength',
  }),
  tool('get_lab_results', 'Returns a patient\'s recent lab results.', {
    patient_id: 'string: Patient id',
  }),
];

export const EXPENSE_TOOLS = [
  tool('get_exchange_rate', 'Returns the reference exchange rate for a date and a rate_id that expense lines can cite.', {
    from_currency: 'string: ISO 4217 code of the original currency',
    to_currency: 'string: ISO 4217 code of the booking currency',
    date: 'string: Rate date, YYYY-MM-DD',
  }),
  tool('add_expense_line', 'Adds an expense line to an open expense report and returns its expense_line_id and booked USD amount.', {
    report_id: 'string: Expense report id',
    category: 'string[travel|lodging|meals|client_entertainment|office_supplies|other]: Expense category',
    merchant: 'string: Merchant name as printed on the receipt',
    expense_date: 'string: YYYY-MM-DD',
    amount: 'number: Amount in the original currency',
    currency: 'string: ISO 4217 code of the original currency',
    exchange_rate_id: 'string: rate_id from get_exchange_rate',
    'guests?': 'string: Who attended, for meals and entertainment',
  }),
  tool('attach_receipt', 'Attaches an image of a receipt to an expense line.', {
    report_id: 'string: Expense report id',
    expense_line_id: 'string: Line id from add_expense_line',
    file_name: 'string: Name of the attached image',
  }),
  tool('submit_report', 'Submits an expense report to the approver.', {
    report_id: 'string: Expense report id',
  }),
  tool('list_expense_reports', 'Lists the user\'s expense reports with status and totals.', {
    'status?': 'string[open|submitted|approved|paid]: Filter by status',
  }),
  tool('create_expense_report', 'Creates a new, empty expense report.', {
    title: 'string: Report title',
    period: 'string: Month covered, YYYY-MM',
  }),
  tool('delete_expense_line', 'Removes a line from an open expense report.', {
    report_id: 'string: Expense report id',
    expense_line_id: 'string: Line to remove',
  }),
  tool('get_per_diem_rate', 'Returns the daily meal allowance for a city and date.', {
    city: 'string: City name',
    date: 'string: YYYY-MM-DD',
  }),
];

const UI_TOOLS = [
  tool('click', 'Clicks the visible element whose label matches.', {
    element_label: 'string: Visible text or accessible label of the element',
    element_type: 'string[button|toggle|link|tab|checkbox]: Kind of element',
  }),
  tool('select_option', 'Opens a dropdown and picks an option.', {
    dropdown_label: 'string: Label of the dropdown',
    option: 'string: Option text to pick',
  }),
  tool('type_text', 'Types text into an input field, replacing its content.', {
    field_label: 'string: Label of the input field',
    text: 'string: Text to type',
  }),
  tool('scroll', 'Scrolls the page.', {
    direction: 'string[up|down]: Direction',
    amount: 'integer: Pixels to scroll',
  }),
  tool('press_key', 'Presses a keyboard key or shortcut.', {
    key: 'string: Key name, e.g. Enter or Control+S',
  }),
  tool('wait_for_text', 'Waits until a text appears on the page.', {
    text: 'string: Text to wait for',
    timeout_seconds: 'integer: Maximum wait',
  }),
  tool('take_screenshot', 'Captures the current screen.'),
];

export const CHART_TOOLS = [
  tool('get_release_notes', 'Returns the app release notes published between two dates (all platforms).', {
    start_date: 'string: YYYY-MM-DD',
    end_date: 'string: YYYY-MM-DD',
  }),
  tool('search_support_tickets', 'Searches support tickets by tag and creation date; returns counts and sample subjects.', {
    tag: 'string: Ticket tag, e.g. billing',
    start_date: 'string: YYYY-MM-DD',
    end_date: 'string: YYYY-MM-DD',
    'status?': 'string[open|closed|any]: Ticket status',
  }),
  tool('create_document', 'Creates a document in the team drive and returns its link.', {
    folder: 'string: Folder name',
    title: 'string: Document title',
    content: 'string: Document text (Markdown)',
  }),
  tool('get_app_store_reviews', 'Returns app store reviews posted between two dates.', {
    start_date: 'string: YYYY-MM-DD',
    end_date: 'string: YYYY-MM-DD',
    'min_stars?': 'integer: Lowest star rating to include',
  }),
  tool('list_experiments', 'Lists A/B experiments that ran between two dates.', {
    start_date: 'string: YYYY-MM-DD',
    end_date: 'string: YYYY-MM-DD',
  }),
  tool('share_document', 'Shares a document with people.', {
    document_link: 'string: Link returned by create_document',
    emails: 'string[]: Addresses to share with',
  }),
  tool('get_marketing_calendar', 'Returns the marketing campaigns planned for a month.', {
    month: 'string: YYYY-MM',
  }),
];

export const CONTRACT_TOOLS = [
  tool('calculate_date', 'Adds or subtracts days from a date. Business days skip weekends.', {
    start_date: 'string: YYYY-MM-DD',
    offset: 'integer: Days to add (negative to go back)',
    unit: 'string[calendar_days|business_days]: How days are counted',
  }),
  tool('create_calendar_reminder', 'Creates an all-day reminder in a shared calendar.', {
    calendar: 'string: Calendar name, e.g. legal-team',
    date: 'string: YYYY-MM-DD',
    title: 'string: Reminder title',
    'notes?': 'string: Details shown in the reminder',
  }),
  tool('send_email', 'Sends an email from the user\'s mailbox.', {
    to: 'string: Recipient address',
    subject: 'string: Subject line',
    body: 'string: Plain-text body',
  }),
  tool('search_contracts', 'Searches the contract repository by supplier name.', {
    supplier: 'string: Supplier name',
  }),
  tool('get_supplier_contact', 'Returns the account manager and addresses of a supplier.', {
    supplier: 'string: Supplier name',
  }),
  tool('translate_text', 'Translates text into another language.', {
    text: 'string: Text to translate',
    target_language: 'string: ISO 639-1 code',
  }),
  tool('summarize_document', 'Summarises a long attached document.', {
    file_name: 'string: Name of the attached file',
  }),
];

// ---------------------------------------------------------------------------------------------
// The base cases.
// ---------------------------------------------------------------------------------------------

export const HOLISTIC_BASES = [
  {
    n: '01',
    family: 'travel',
    category: 'Travel & Itinerary Planning',
    subset: 'flights',
    systemPrompt:
      'You are the booking assistant of the Arcadia travel desk. Company travel policy: economy class on flights shorter than 4 hours; every booking is made against the traveller\'s profile ID; itineraries are sent only to the traveller\'s own address. Today is Monday 3 March 2025.',
    query:
      'I need to fly from Lisbon to Amsterdam on Friday 14 March 2025 for a conference. Find the cheapest direct economy flight that lands before 13:00 and costs under EUR 180, book it on my traveller profile TP-4471 and add one checked bag. Then email the itinerary to me at ines.moreira@example.com.',
    tools: TRAVEL_TOOLS,
    plan: [
      '1. Search direct economy flights LIS to AMS on 2025-03-14 with a EUR 180 fare cap.',
      '2. Keep the offers that land before 13:00 local time and book the cheapest one on traveller profile TP-4471.',
      '3. Add one checked bag to the new booking.',
      '4. Email the itinerary, with the booking reference and the bag, to ines.moreira@example.com.',
    ].join('\n'),
    chain: [
      call('search_flights', { origin: 'LIS', destination: 'AMS', date: '2025-03-14', cabin: 'economy', max_stops: 0, max_price: 180, currency: 'EUR' }, 'List direct economy offers on the travel date within the fare cap.'),
      call('book_flight', { flight_id: '<flight_id of the cheapest offer from step 1 landing before 13:00>', traveller_profile_id: 'TP-4471' }, 'Book the offer that meets every constraint on the traveller\'s profile.'),
      call('add_checked_bag', { booking_reference: '<booking_reference from step 2>', bags: 1 }, 'The traveller asked for one checked bag.'),
      call('send_email', { to: 'ines.moreira@example.com', subject: 'Your flight Lisbon to Amsterdam on 14 March 2025', body: '<itinerary: flight, times and booking reference from step 2, bag from step 3>' }, 'Send the itinerary to the traveller\'s own address.'),
    ],
    distractorLevel: 2,
    distractors: [
      tool('get_airport_lounge_access', 'Tells whether a loyalty member may use the lounges of an airport.', {
        airport_code: 'string: IATA airport code',
        loyalty_number: 'string: Frequent-flyer number',
      }),
      tool('estimate_flight_emissions', 'Estimates the CO2 emissions of one passenger on a route.', {
        origin: 'string: IATA code',
        destination: 'string: IATA code',
        cabin: 'string[economy|premium_economy|business]: Cabin class',
      }),
    ],
  },
  {
    n: '02',
    family: 'ecommerce_support',
    category: 'Customer Support',
    subset: 'returns',
    systemPrompt:
      'You are a support agent for Brightcart, an online home-goods shop. Follow the attached returns policy. Today is Wednesday 5 March 2025.',
    query:
      'Hi, my order BC-58213 arrived on 2 March and the glass jug of the blender (SKU BL-900) was cracked. I want to send it back and get my money back on the card I paid with, not store credit. Please answer on my ticket T-77120 once it is sorted.',
    files: [{ path: 'assets/brightcart_returns_policy.md', type: 'policy_document' }],
    tools: RETURNS_TOOLS,
    plan: [
      '1. Open order BC-58213 to confirm the blender line (BL-900), the delivery date and the payment card.',
      '2. Check that BL-900 is eligible for return with reason "damaged" (delivered 3 days ago, inside the 30-day window).',
      '3. Create a prepaid return label for the line.',
      '4. Refund the line to the original payment method, as the customer asked and the policy allows once a label exists.',
      '5. Reply on ticket T-77120 with the label link and the refund confirmation.',
    ].join('\n'),
    chain: [
      call('get_order_details', { order_id: 'BC-58213' }, 'Confirm the order line, delivery date and payment method.'),
      call('check_return_eligibility', { order_id: 'BC-58213', sku: 'BL-900', reason: 'damaged' }, 'The policy requires an eligibility check before any label or refund.'),
      call('create_return_label', { order_id: 'BC-58213', sku: 'BL-900' }, 'Damaged items get a prepaid return label.'),
      call('issue_refund', { order_id: 'BC-58213', sku: 'BL-900', method: 'original_payment' }, 'Refund to the card, as requested; the label exists so the refund may go out now.'),
      call('reply_to_ticket', { ticket_id: 'T-77120', message: '<label link from step 3 and refund reference from step 4>' }, 'Confirm the outcome to the customer on the ticket.'),
    ],
    distractorLevel: 4,
    distractors: [
      tool('get_product_reviews', 'Returns customer reviews of a product.', {
        sku: 'string: Product SKU',
        'limit?': 'integer: Maximum reviews to return',
      }),
      tool('check_warranty_status', 'Returns the manufacturer warranty period left for a product bought on a date.', {
        sku: 'string: Product SKU',
        purchase_date: 'string: YYYY-MM-DD',
      }),
      tool('estimate_delivery_date', 'Estimates when a product would arrive at a postcode if ordered today.', {
        sku: 'string: Product SKU',
        postcode: 'string: Delivery postcode',
      }),
      tool('get_gift_card_balance', 'Returns the remaining balance of a gift card.', {
        card_number: 'string: Gift card number',
      }),
    ],
  },
  {
    n: '03',
    family: 'data_analysis',
    category: 'Spreadsheet Manipulation',
    subset: 'spreadsheets',
    query:
      'The attached sales_q3_2024.csv lists every order line from July to September 2024. Work out total revenue per region for the quarter, leaving out the Samples product line, and put a bar chart of it on a new sheet called "Q3 by region" in workbook WB-2024-SALES. Then tell the regional leads in #sales-leads which region came first and with how much.',
    files: [{ path: 'assets/sales_q3_2024.csv', type: 'spreadsheet' }],
    tools: SHEET_TOOLS,
    plan: [
      '1. Load sales_q3_2024.csv (it has a header row).',
      '2. Drop the rows whose product_line is Samples.',
      '3. Sum revenue_eur by region on the filtered table.',
      '4. Add the sheet "Q3 by region" to WB-2024-SALES.',
      '5. Insert a bar chart of the regional totals on that sheet.',
      '6. Post the leading region and its total in #sales-leads.',
    ].join('\n'),
    chain: [
      call('load_csv', { file_name: 'sales_q3_2024.csv', has_header: true }, 'Read the attached order lines into a table.'),
      call('filter_rows', { table_id: '<table_id from step 1>', column: 'product_line', operator: 'not_equals', value: 'Samples' }, 'The user wants the Samples line left out.'),
      call('aggregate', { table_id: '<table_id from step 2>', group_by: 'region', column: 'revenue_eur', function: 'sum' }, 'Quarterly revenue per region.'),
      call('create_sheet', { workbook_id: 'WB-2024-SALES', sheet_name: 'Q3 by region' }, 'The chart goes on a new sheet with this name.'),
      call('insert_chart', { workbook_id: 'WB-2024-SALES', sheet_name: 'Q3 by region', table_id: '<table_id from step 3>', chart_type: 'bar', x_column: 'region', y_column: 'revenue_eur_sum', title: 'Q3 2024 revenue by region (excluding Samples)' }, 'Bar chart of the regional totals.'),
      call('post_message', { channel: '#sales-leads', text: '<leading region and its Q3 revenue from step 3>' }, 'Tell the regional leads who came first.'),
    ],
    distractorLevel: 6,
    distractors: [
      tool('forecast_series', 'Forecasts the next periods of a numeric column with exponential smoothing.', {
        table_id: 'string: Input table',
        column: 'string: Numeric column',
        periods: 'integer: Periods to forecast',
      }),
      tool('highlight_cells', 'Fills a cell range with a background colour.', {
        workbook_id: 'string: Workbook id',
        sheet_name: 'string: Sheet',
        range: 'string: A1-style range',
        color: 'string: Hex colour',
      }),
      tool('get_cell_comments', 'Returns the comments attached to a cell.', {
        workbook_id: 'string: Workbook id',
        sheet_name: 'string: Sheet',
        cell: 'string: A1-style cell',
      }),
      tool('protect_sheet', 'Locks a sheet against edits.', {
        workbook_id: 'string: Workbook id',
        sheet_name: 'string: Sheet',
      }),
      tool('list_workbook_versions', 'Lists the saved versions of a workbook.', {
        workbook_id: 'string: Workbook id',
      }),
      tool('spell_check_sheet', 'Checks the spelling of the text cells of a sheet.', {
        workbook_id: 'string: Workbook id',
        sheet_name: 'string: Sheet',
      }),
    ],
  },
  {
    n: '04',
    family: 'devops',
    category: 'System Operations & Web Engineering',
    subset: 'incident_response',
    systemPrompt:
      'You are the on-call assistant of the Payments platform team. Runbook rules: (1) before rolling anything back, confirm from the logs that the errors started after the suspect deployment; (2) roll back only to the most recent deployment marked healthy; (3) report every action in #inc-payments with the incident ID.',
    query:
      'Alert ALR-3391 fired: the checkout-api 5xx rate in production has been above 4% since about 14:10 UTC today (2025-03-05). Find out whether one of today\'s production deployments of checkout-api caused it, roll back if so, and post an update for incident INC-2207.',
    tools: INCIDENT_TOOLS,
    plan: [
      '1. Read alert ALR-3391 for the exact start time and affected service.',
      '2. List today\'s production deployments of checkout-api, noting which ones are marked healthy.',
      '3. Search the error logs around the alert start to confirm the 5xx errors begin right after the newest deployment.',
      '4. With the correlation confirmed, roll back to the most recent deployment marked healthy.',
      '5. Post the finding and the rollback in #inc-payments for INC-2207.',
    ].join('\n'),
    chain: [
      call('get_alert', { alert_id: 'ALR-3391' }, 'Get the alert start time and scope.'),
      call('list_deployments', { service: 'checkout-api', environment: 'production', since: '2025-03-05T00:00:00Z' }, 'Find today\'s deployments and the last healthy one.'),
      call('search_logs', { service: 'checkout-api', environment: 'production', query: 'status>=500', start_time: '2025-03-05T13:30:00Z', end_time: '2025-03-05T15:00:00Z', level: 'error' }, 'Runbook rule 1: confirm the errors start after the suspect deployment.'),
      call('rollback_deployment', { service: 'checkout-api', environment: 'production', target_deployment_id: '<most recent deployment marked healthy from step 2>' }, 'Runbook rule 2: return to the last healthy deployment.'),
      call('post_incident_update', { channel: '#inc-payments', incident_id: 'INC-2207', message: '<cause from steps 2-3 and rollback result from step 4>' }, 'Runbook rule 3: report the action in the incident channel.'),
    ],
    distractorLevel: 8,
    distractors: [
      tool('get_service_owner', 'Returns the owning team and escalation contacts of a service.', { service: 'string: Service name' }),
      tool('list_feature_flags', 'Lists the feature flags of a service and their state.', {
        service: 'string: Service name',
        environment: 'string[production|staging]: Environment',
      }),
      tool('get_certificate_expiry', 'Returns the TLS certificate expiry date of a domain.', { domain: 'string: Domain name' }),
      tool('get_cloud_cost_report', 'Returns cloud spend per service for a month.', { month: 'string: YYYY-MM' }),
      tool('list_open_pull_requests', 'Lists open pull requests of a repository.', { repository: 'string: owner/name' }),
      tool('get_uptime_report', 'Returns the monthly uptime of a service against its SLA.', {
        service: 'string: Service name',
        month: 'string: YYYY-MM',
      }),
      tool('get_dns_records', 'Lists the DNS records of a domain.', { domain: 'string: Domain name' }),
      tool('list_cron_jobs', 'Lists the scheduled jobs of a service.', { service: 'string: Service name' }),
    ],
  },
  {
    n: '05',
    family: 'calendar_email',
    category: 'Professional Communication',
    subset: 'scheduling',
    openaiTools: true,
    query:
      'Set up a 45-minute "Q2 roadmap review" with Priya Nair, Tom Becker and Lena Okafor next week, between Tuesday 11 and Thursday 13 March 2025, starting no earlier than 10:00 and ending by 16:00 Berlin time. Book a room for the four of us on the 3rd floor for that slot and send the invitation with the agenda link https://docs.example.com/d/roadmap-q2.',
    tools: CALENDAR_TOOLS,
    plan: [
      '1. Look up the email addresses of Priya Nair, Tom Becker and Lena Okafor.',
      '2. Find the earliest 45-minute slot between 11 and 13 March, 10:00-16:00 Europe/Berlin, when all three and the organiser are free.',
      '3. Book a 4-person room on floor 3 for that slot.',
      '4. Create the calendar event with the three attendees, the room as location and the agenda link in the description, which sends the invitations.',
    ].join('\n'),
    chain: [
      call('lookup_contact', { name: 'Priya Nair' }, 'Need her email to check availability and invite her.'),
      call('lookup_contact', { name: 'Tom Becker' }, 'Need his email.'),
      call('lookup_contact', { name: 'Lena Okafor' }, 'Need her email.'),
      call('find_common_free_slots', { attendee_emails: ['<email from step 1>', '<email from step 2>', '<email from step 3>'], duration_minutes: 45, range_start: '2025-03-11', range_end: '2025-03-13', working_hours_start: '10:00', working_hours_end: '16:00', timezone: 'Europe/Berlin' }, 'Earliest slot that fits everyone within the requested window.'),
      call('book_room', { start: '<start of the first slot from step 4>', end: '<end of that slot>', capacity: 4, floor: 3 }, 'Room for four on the 3rd floor.'),
      call('create_calendar_event', { title: 'Q2 roadmap review', start: '<slot start from step 4>', end: '<slot end from step 4>', attendee_emails: ['<email from step 1>', '<email from step 2>', '<email from step 3>'], location: '<room name from step 5>', description: 'Agenda: https://docs.example.com/d/roadmap-q2' }, 'Create the event; this sends the invitations with the agenda link.'),
    ],
    distractorLevel: 10,
    distractors: [
      tool('set_out_of_office', 'Sets an automatic out-of-office reply.', {
        start_date: 'string: YYYY-MM-DD',
        end_date: 'string: YYYY-MM-DD',
        message: 'string: Reply text',
      }),
      tool('get_public_holidays', 'Lists the public holidays of a country in a year.', {
        country_code: 'string: ISO 3166 alpha-2 code',
        year: 'integer: Year',
      }),
      tool('create_task', 'Adds a to-do item to the user\'s task list.', {
        title: 'string: Task title',
        due_date: 'string: YYYY-MM-DD',
      }),
      tool('share_calendar', 'Shares the user\'s calendar with a colleague.', {
        email: 'string: Colleague\'s address',
        permission: 'string[free_busy|read|edit]: Access level',
      }),
      tool('get_commute_time', 'Estimates the travel time between two addresses.', {
        origin: 'string: Start address',
        destination: 'string: End address',
        departure_time: 'string: ISO 8601',
      }),
      tool('archive_email', 'Moves an email to the archive.', { message_id: 'string: Message id' }),
      tool('set_event_color', 'Changes the display colour of a calendar event.', {
        event_id: 'string: Event id',
        color: 'string[red|orange|green|blue|purple|grey]: Colour',
      }),
      tool('get_room_photos', 'Returns photos of a meeting room.', { room_name: 'string: Room name' }),
      tool('list_birthdays', 'Lists colleagues\' birthdays in a month.', { month: 'string: YYYY-MM' }),
      tool('translate_text', 'Translates text into another language.', {
        text: 'string: Text',
        target_language: 'string: ISO 639-1 code',
      }),
    ],
  },
  {
    n: '06',
    family: 'clinic_scheduling',
    category: 'Health & Nutrition Management',
    subset: 'appointments',
    systemPrompt:
      'You are the scheduling assistant of Harbourside Medical Group. Rules: identify the patient by full name and date of birth before any booking; check insurance coverage before booking a specialist visit; follow-ups are booked with the same clinician; send an SMS confirmation after every booking. Today is Wednesday 5 March 2025.',
    query:
      'This is Daniel Reyes, born 22 September 1987. Dr. Amara Chen wants to see me again for a dermatology follow-up within the next two weeks. Please book the earliest morning slot she has and text me the confirmation. My insurer is Meridian Health, member ID MH-0098231.',
    tools: CLINIC_TOOLS,
    plan: [
      '1. Identify the patient: Daniel Reyes, born 1987-09-22.',
      '2. Check that Meridian Health member MH-0098231 is covered for dermatology.',
      '3. List Dr. Amara Chen\'s free morning slots from 2025-03-05 to 2025-03-19.',
      '4. Book the earliest one as a follow-up visit.',
      '5. Text the confirmation (date, time, clinic) to the patient.',
    ].join('\n'),
    chain: [
      call('find_patient', { full_name: 'Daniel Reyes', date_of_birth: '1987-09-22' }, 'Clinic rule: identify the patient before booking.'),
      call('check_insurance_coverage', { insurer: 'Meridian Health', member_id: 'MH-0098231', service_type: 'dermatology' }, 'Clinic rule: check coverage before a specialist visit.'),
      call('list_available_slots', { clinician_name: 'Amara Chen', from_date: '2025-03-05', to_date: '2025-03-19', time_of_day: 'morning' }, 'Same clinician, within two weeks, mornings only.'),
      call('book_appointment', { patient_id: '<patient_id from step 1>', slot_id: '<earliest slot_id from step 3>', visit_type: 'follow_up' }, 'Book the earliest morning slot.'),
      call('send_sms', { patient_id: '<patient_id from step 1>', message: '<date, time and location of the appointment from step 4>' }, 'Clinic rule: SMS confirmation after every booking.'),
    ],
    distractorLevel: 2,
    distractors: [
      tool('get_clinic_parking_info', 'Returns parking options and prices near a clinic location.', { location: 'string: Clinic location name' }),
      tool('get_vaccination_record', 'Returns a patient\'s vaccination history.', { patient_id: 'string: Patient id' }),
    ],
  },
  {
    n: '07',
    family: 'personal_finance',
    category: 'Expense & Budget Management',
    subset: 'expenses',
    query:
      'Please file the attached dinner receipt on my February trip report ER-2025-031. It was a client dinner with two people from Lumen Analytics, so it belongs under client entertainment. Our system books in USD: use the exchange rate of the receipt date, attach the photo (receipt_trattoria_da_paolo.png) to the line and then submit the report for approval.',
    files: [{ path: 'assets/receipt_trattoria_da_paolo.png', type: 'image' }],
    tools: EXPENSE_TOOLS,
    plan: [
      '1. Read the receipt: Trattoria Da Paolo, 27/02/2025, total EUR 186.50.',
      '2. Get the EUR to USD rate for 2025-02-27.',
      '3. Add a client_entertainment line to ER-2025-031 for EUR 186.50 citing that rate, with the two Lumen Analytics guests.',
      '4. Attach the receipt photo to the new line.',
      '5. Submit the report.',
    ].join('\n'),
    chain: [
      call('get_exchange_rate', { from_currency: 'EUR', to_currency: 'USD', date: '2025-02-27' }, 'The receipt is dated 27/02/2025 and in EUR; the booking currency is USD.'),
      call('add_expense_line', { report_id: 'ER-2025-031', category: 'client_entertainment', merchant: 'Trattoria Da Paolo', expense_date: '2025-02-27', amount: 186.5, currency: 'EUR', exchange_rate_id: '<rate_id from step 1>', guests: 'Two guests from Lumen Analytics' }, 'Book the dinner with the figures printed on the receipt.'),
      call('attach_receipt', { report_id: 'ER-2025-031', expense_line_id: '<expense_line_id from step 2>', file_name: 'receipt_trattoria_da_paolo.png' }, 'The line needs the receipt image.'),
      call('submit_report', { report_id: 'ER-2025-031' }, 'Send the report for approval.'),
    ],
    distractorLevel: 4,
    distractors: [
      tool('get_corporate_card_limit', 'Returns the monthly limit and remaining balance of a corporate card.', { card_id: 'string: Card id' }),
      tool('list_vat_reclaim_rules', 'Lists which expense categories allow VAT reclaim in a country.', { country_code: 'string: ISO 3166 alpha-2 code' }),
      tool('find_restaurant_reviews', 'Returns public reviews of a restaurant.', {
        name: 'string: Restaurant name',
        city: 'string: City',
      }),
      tool('get_mileage_rate', 'Returns the reimbursement rate per kilometre for private cars.', { country_code: 'string: ISO 3166 alpha-2 code' }),
    ],
  },
  {
    n: '08',
    family: 'gui_automation',
    category: 'Web UI Automation',
    subset: 'web_app',
    query:
      'In the Teamline web app, turn on the weekly digest email, have it sent on Mondays, and save the settings. The first screenshot shows the notification settings page as it is now; the second shows how it should look when you are done.',
    files: [
      { path: 'assets/teamline_settings_start.png', type: 'start_screenshot' },
      { path: 'assets/teamline_settings_goal.png', type: 'goal_screenshot' },
    ],
    tools: UI_TOOLS,
    plan: [
      '1. Switch on the "Weekly digest email" toggle; the "Digest day" dropdown is greyed out until it is on.',
      '2. Pick Monday in the "Digest day" dropdown (it shows Friday now).',
      '3. Click "Save changes".',
      '4. Wait for the "Settings saved" confirmation shown in the goal screenshot.',
    ].join('\n'),
    chain: [
      call('click', { element_label: 'Weekly digest email', element_type: 'toggle' }, 'The toggle is Off in the start screenshot and On in the goal.'),
      call('select_option', { dropdown_label: 'Digest day', option: 'Monday' }, 'The dropdown becomes active once the digest is on; the goal shows Monday.'),
      call('click', { element_label: 'Save changes', element_type: 'button' }, 'Persist the settings.'),
      call('wait_for_text', { text: 'Settings saved', timeout_seconds: 5 }, 'The goal screenshot shows this confirmation.'),
    ],
    distractorLevel: 6,
    distractors: [
      tool('get_page_title', 'Returns the title of the current browser tab.'),
      tool('open_help_center', 'Opens the app\'s help centre on a topic.', { topic: 'string: Help topic' }),
      tool('read_clipboard', 'Returns the text currently on the clipboard.'),
      tool('set_browser_zoom', 'Sets the zoom level of the page.', { percent: 'integer: Zoom level, 25-500' }),
      tool('clear_browser_cache', 'Clears the browser cache and cookies.'),
      tool('open_new_tab', 'Opens a URL in a new tab.', { url: 'string: Address to open' }),
    ],
  },
  {
    n: '09',
    family: 'data_analysis',
    category: 'Statistical Analysis',
    subset: 'charts',
    query:
      'The attached chart shows our app\'s monthly active users for 2024. Find the month with the biggest drop compared with the month before, pull the release notes and the support tickets tagged "login" for that month, and write a short memo titled "MAU dip analysis" in the Product Insights folder summarising the likely cause.',
    files: [{ path: 'assets/mau_chart_2024.png', type: 'image' }],
    tools: CHART_TOOLS,
    plan: [
      '1. Read the chart: the largest month-over-month drop is August 2024 (148k in July to 121k, -27k, about -18%).',
      '2. Get the release notes published 2024-08-01 to 2024-08-31.',
      '3. Get the support tickets tagged "login" created in the same period.',
      '4. Write the memo "MAU dip analysis" in Product Insights linking the drop to what the release notes and tickets show.',
    ].join('\n'),
    chain: [
      call('get_release_notes', { start_date: '2024-08-01', end_date: '2024-08-31' }, 'The chart shows the biggest drop in August (148k to 121k).'),
      call('search_support_tickets', { tag: 'login', start_date: '2024-08-01', end_date: '2024-08-31', status: 'any' }, 'Login problems in the same month would explain lost users.'),
      call('create_document', { folder: 'Product Insights', title: 'MAU dip analysis', content: '<drop read from the chart, release changes from step 1 and login ticket themes from step 2>' }, 'Write the requested memo.'),
    ],
    distractorLevel: 8,
    distractors: [
      tool('get_stock_quote', 'Returns the closing price of a listed company on a date.', {
        ticker: 'string: Stock ticker',
        date: 'string: YYYY-MM-DD',
      }),
      tool('get_company_logo', 'Returns the logo image of a company.', { company: 'string: Company name' }),
      tool('get_weather_history', 'Returns the average weather of a city in a month.', {
        city: 'string: City',
        month: 'string: YYYY-MM',
      }),
      tool('list_competitor_apps', 'Lists competing apps in an app store category.', { category: 'string: Store category' }),
      tool('get_ad_spend', 'Returns advertising spend of a marketing channel in a month.', {
        channel: 'string[search|social|display|tv]: Channel',
        month: 'string: YYYY-MM',
      }),
      tool('get_server_uptime', 'Returns backend uptime for a month.', { month: 'string: YYYY-MM' }),
      tool('get_employee_headcount', 'Returns a department\'s headcount at the end of a month.', {
        department: 'string: Department',
        month: 'string: YYYY-MM',
      }),
      tool('translate_text', 'Translates text into another language.', {
        text: 'string: Text',
        target_language: 'string: ISO 639-1 code',
      }),
    ],
  },
  {
    n: '10',
    family: 'document_analysis',
    category: 'Document & Legal Analysis',
    subset: 'contracts',
    query:
      'Our hosting contract summary is attached. I don\'t want it to renew without a review: work out the last day we can give notice of non-renewal, put a reminder in the legal-team calendar ten business days before that day, and email Marta in procurement (marta.silva@example.com) with the deadline and the clause it comes from.',
    files: [{ path: 'assets/vendor_contract_summary.md', type: 'document' }],
    tools: CONTRACT_TOOLS,
    plan: [
      '1. From the summary: effective 1 June 2023, 24-month initial term, so the renewal date is 2025-06-01; § 9.2 requires notice at least 60 calendar days before it.',
      '2. Go back 60 calendar days from 2025-06-01 to get the notice deadline (2025-04-02).',
      '3. Go back 10 business days from that deadline for the reminder date.',
      '4. Create the reminder in the legal-team calendar on that date.',
      '5. Email marta.silva@example.com with the deadline and clause § 9.2.',
    ].join('\n'),
    chain: [
      call('calculate_date', { start_date: '2025-06-01', offset: -60, unit: 'calendar_days' }, '§ 9.2: notice at least 60 calendar days before the renewal date.'),
      call('calculate_date', { start_date: '<notice deadline from step 1>', offset: -10, unit: 'business_days' }, 'Reminder ten business days before the deadline.'),
      call('create_calendar_reminder', { calendar: 'legal-team', date: '<date from step 2>', title: 'CloudPeak MSA: non-renewal notice due', notes: '<deadline from step 1; clause 9.2; notice to legal@cloudpeak.example>' }, 'Put the reminder where the legal team sees it.'),
      call('send_email', { to: 'marta.silva@example.com', subject: 'CloudPeak hosting contract: non-renewal notice deadline', body: '<deadline from step 1, reminder date from step 2, clause 9.2 text>' }, 'Tell procurement the deadline and its source.'),
    ],
    distractorLevel: 10,
    distractors: [
      tool('get_vendor_logo', 'Returns the logo image of a supplier.', { supplier: 'string: Supplier name' }),
      tool('get_supplier_credit_rating', 'Returns the credit rating of a supplier.', { supplier: 'string: Supplier name' }),
      tool('convert_document_format', 'Converts an attached document to another format.', {
        file_name: 'string: Attached file',
        target_format: 'string[pdf|docx|txt]: Format',
      }),
      tool('count_words', 'Counts the words of a text.', { text: 'string: Text' }),
      tool('get_time_zone', 'Returns the time zone of a city.', { city: 'string: City' }),
      tool('e_sign_document', 'Sends a document for electronic signature.', {
        file_name: 'string: Attached file',
        signer_email: 'string: Signer\'s address',
      }),
      tool('search_case_law', 'Searches court decisions.', {
        query: 'string: Search terms',
        jurisdiction: 'string: Jurisdiction code',
      }),
      tool('get_stock_quote', 'Returns the closing price of a listed company on a date.', {
        ticker: 'string: Stock ticker',
        date: 'string: YYYY-MM-DD',
      }),
      tool('create_invoice', 'Creates a sales invoice for a customer.', {
        customer_id: 'string: Customer id',
        amount: 'number: Amount in EUR',
      }),
      tool('get_office_address', 'Returns the postal address of a company office.', { office: 'string: Office name' }),
    ],
  },
];

export { UI_TOOLS };

/** Wraps a base's tools in the OpenAI shape when the base uses it. */
export function shaped(base, tools) {
  return base.openaiTools ? tools.map(openai) : tools;
}
