/**
 * Holistic robustness and efficiency cases of the apb sample: holistic_unsolvable (four kinds of
 * infeasibility) and holistic_efficiency (cost-annotated tool banks with composite and trap tools).
 * Every task, tool and value here is fictional and written for apb.
 */
import { call, tool } from './lib.mjs';
import { CALENDAR_TOOLS, CLINIC_TOOLS, RETURNS_TOOLS } from './cases-holistic.mjs';

const RETURNS_POLICY = { path: 'assets/brightcart_returns_policy.md', type: 'policy_document' };

const RELEASE_TOOLS = [
  tool('list_releases', 'Lists the tagged releases of a service with their build status.', { service: 'string: Service name' }),
  tool('trigger_pipeline', 'Starts the deployment pipeline for a release. Production runs are rejected during a change freeze unless an approved exception id is given.', {
    service: 'string: Service name',
    version: 'string: Release tag, e.g. v1.2.3',
    environment: 'string[staging|production]: Target environment',
    'freeze_exception_id?': 'string: Approved freeze exception id',
  }),
  tool('get_pipeline_status', 'Returns the stages and status of a pipeline run.', { run_id: 'string: Pipeline run id' }),
  tool('request_freeze_exception', 'Files a change-freeze exception with the change board; returns its id and review status.', {
    service: 'string: Service name',
    version: 'string: Release tag',
    justification: 'string: Why the change cannot wait',
  }),
  tool('get_change_calendar', 'Returns the freeze windows and maintenance windows of the next 30 days.'),
  tool('post_message', 'Posts a message in a team chat channel.', {
    channel: 'string: Channel name',
    text: 'string: Message text',
  }),
];

const BANKING_TOOLS = [
  tool('list_accounts', 'Lists the signed-in customer\'s accounts with ids, types and currencies.'),
  tool('get_account_balance', 'Returns the available balance of an account.', { account_id: 'string: Account id' }),
  tool('create_transfer', 'Sends a SEPA transfer from one of the customer\'s accounts.', {
    from_account_id: 'string: Source account id',
    to_iban: 'string: Beneficiary IBAN',
    beneficiary_name: 'string: Beneficiary name',
    amount: 'number: Amount',
    currency: 'string: ISO 4217 code',
    reference: 'string: Payment reference shown to the beneficiary',
  }),
  tool('get_exchange_rate', 'Returns today\'s exchange rate between two currencies.', {
    from_currency: 'string: ISO 4217 code',
    to_currency: 'string: ISO 4217 code',
  }),
  tool('freeze_card', 'Temporarily blocks a payment card.', { card_id: 'string: Card id' }),
  tool('set_spending_alert', 'Sends a notification when spending in a category passes a threshold.', {
    account_id: 'string: Account id',
    category: 'string: Spending category',
    threshold: 'number: Amount in the account currency',
  }),
];

const B2B_TOOLS = [
  tool('get_product', 'Returns a product\'s name, unit price, stock and weight.', { sku: 'string: Product SKU' }),
  tool('create_cart', 'Creates an empty cart for a business account.', { account_id: 'string: Business account id' }),
  tool('add_to_cart', 'Adds a quantity of a product to a cart.', {
    cart_id: 'string: Cart id',
    sku: 'string: Product SKU',
    quantity: 'integer: Units',
  }),
  tool('apply_discount', 'Applies a percentage discount to every line of a cart.', {
    cart_id: 'string: Cart id',
    percent: 'number: Discount in percent, e.g. 12.5',
  }),
  tool('checkout', 'Places the order for a cart.', {
    cart_id: 'string: Cart id',
    shipping_address: 'string: Full postal address',
    payment_method: 'string[invoice|card]: Payment method',
  }),
  tool('get_shipping_quote', 'Quotes freight for a weight to a postcode.', {
    postcode: 'string: Destination postcode',
    weight_kg: 'number: Total weight',
  }),
];

// ---------------------------------------------------------------------------------------------
// holistic_unsolvable. `from` names the holistic_planning base a derived case keeps its query from.
// ---------------------------------------------------------------------------------------------

export const UNSOLVABLE = [
  {
    n: '01',
    type: 'contradictory_constraints',
    family: 'devops',
    category: 'System Operations & Web Engineering',
    subset: 'releases',
    systemPrompt:
      'You are the release assistant of the Search team. A production change freeze runs from 2025-03-03 00:00 UTC to 2025-03-10 00:00 UTC: during it the pipeline rejects production deployments unless an approved freeze exception id is attached. Today is 2025-03-05.',
    query:
      'Ship search-api v2.14.0 to production today through the normal pipeline. Do not file a freeze exception, I do not want this on the change board\'s radar, and do not wait for the freeze to end either: it has to be live tonight.',
    tools: RELEASE_TOOLS,
    plan:
      'Not feasible as asked. Today (5 March) is inside the production change freeze, and the pipeline rejects a production run without an approved freeze exception. The two ways the release could go out, filing an exception or waiting until 10 March, are both ruled out by the user. The agent should explain the conflict and ask which constraint to relax instead of triggering the pipeline.',
  },
  {
    n: '02',
    type: 'contradictory_constraints',
    family: 'calendar_email',
    category: 'Event Planning',
    subset: 'scheduling',
    query:
      'Book a 90-minute in-person workshop for me and my four reports (ana.reis@example.com, ben.hall@example.com, chloe.martin@example.com, dev.patel@example.com) this Friday, 7 March 2025. It must start at 15:00 or later and be finished by 16:00 at the latest, in one room, and please do not split it into two sessions.',
    tools: CALENDAR_TOOLS,
    plan:
      'Not feasible: the allowed window (15:00 to 16:00) is 60 minutes long, while the workshop must last 90 minutes in one sitting. No slot and no room can satisfy all the constraints, so nothing should be booked; the agent should point out the conflict and ask whether to widen the window, shorten the workshop or allow two sessions.',
  },
  {
    n: '03',
    type: 'contradictory_constraints',
    family: 'ecommerce_support',
    category: 'Customer Support',
    subset: 'returns',
    systemPrompt:
      'You are a support agent for Brightcart, an online home-goods shop. Follow the attached returns policy. Maintenance notice: the refund service behind issue_refund is offline for the whole of 5 March 2025 (payment-provider migration); calls fail and cannot be queued for later. Store credit is handled by a separate service and works normally. Today is 5 March 2025.',
    query:
      'My order BC-60441 was delivered yesterday and the towel set (SKU TW-120) has a big bleach stain. I want a refund to my card today, not tomorrow, and I do not want store credit. Ticket T-80112.',
    files: [RETURNS_POLICY],
    tools: RETURNS_TOOLS,
    plan:
      'Not feasible as asked. A card refund needs issue_refund with method original_payment, and the system prompt says that service is offline all day today and cannot queue requests. The customer insists on today and refuses store credit, the only refund route that works. The agent may check eligibility and create the return label, but must tell the customer the card refund cannot happen today instead of claiming it was issued.',
  },
  {
    n: '04',
    type: 'information_missing',
    family: 'personal_finance',
    category: 'Expense & Budget Management',
    subset: 'banking',
    systemPrompt:
      'You are the in-app assistant of Fjordbank. You can act only through the listed tools. The bank keeps no list of saved payees.',
    query:
      'Pay this month\'s rent to my landlord from my checking account: the usual amount, with the usual reference. It is due tomorrow, so please send it now.',
    tools: BANKING_TOOLS,
    plan:
      'Cannot be done without more information. A transfer needs the landlord\'s name and IBAN, the amount and the reference, and the request gives none of them ("the usual"). No listed tool can read past transfers or saved payees, and the bank keeps no payee list. The agent must ask the customer for these details instead of guessing.',
  },
  {
    n: '05',
    type: 'information_missing',
    family: 'ecommerce_support',
    category: 'Consumer Decision Making',
    subset: 'b2b_orders',
    systemPrompt:
      'You take business orders for Brightcart Business. Negotiated discounts are not stored in any system you can reach: the agent enters the percentage the customer states.',
    query:
      'Order 12 office chairs (SKU CH-220) for our business account ACME-B2B-118 with our corporate discount applied, pay by invoice and ship them to Rua do Carmo 51, 1200-093 Lisboa.',
    tools: B2B_TOOLS,
    plan:
      'Cannot be completed as asked: the corporate discount rate is never stated, and the system prompt says no reachable system stores it. apply_discount needs an explicit percentage, so checking out now would invoice the wrong price. The agent should ask the customer for the discount rate before placing the order.',
  },
  {
    n: '06',
    type: 'information_missing',
    family: 'clinic_scheduling',
    category: 'Health & Nutrition Management',
    subset: 'appointments',
    systemPrompt:
      'You are the scheduling assistant of Harbourside Medical Group. Identify the patient by full name and date of birth before changing any booking. Today is Wednesday 5 March 2025.',
    query:
      'Can you move my daughter\'s physio appointment next week to the same time on Thursday? She sees her usual therapist.',
    tools: CLINIC_TOOLS,
    plan:
      'Cannot be done yet: the patient is not identified. The daughter\'s name and date of birth are not given, so find_patient cannot be called, and without it neither the appointment nor the therapist can be found. The agent must ask for her full name and date of birth (and which day the current appointment is).',
  },
  {
    n: '07',
    type: 'tool_removal',
    from: '02',
    removeTool: 'issue_refund',
    plan:
      'Cannot be completed with these tools. The customer asks for a refund to the original card, and no listed tool issues refunds (there is no issue_refund or equivalent). The order check, eligibility check, return label and ticket reply are possible, but the refund itself is not, so the agent should say so instead of telling the customer the money is on its way. With a refund tool the chain would be: get_order_details, check_return_eligibility, create_return_label, issue_refund, reply_to_ticket.',
  },
  {
    n: '08',
    type: 'tool_removal',
    from: '06',
    removeTool: 'book_appointment',
    plan:
      'Cannot be completed with these tools: none of them books an appointment. The patient can be identified, coverage checked and free slots listed, but the follow-up itself cannot be booked, and sending a confirmation SMS for a booking that does not exist would mislead the patient. With a booking tool the chain would be: find_patient, check_insurance_coverage, list_available_slots, book_appointment, send_sms.',
  },
  {
    n: '09',
    type: 'visual_missing',
    from: '07',
    plan:
      'Cannot be done: the request depends on the attached receipt photo (merchant, date and total in EUR), but no image is attached. Without it the amount, date and merchant of the expense are unknown, and no tool can read the receipt. The agent should ask the user to attach the receipt.',
  },
  {
    n: '10',
    type: 'visual_missing',
    from: '09',
    plan:
      'Cannot be done: the month to investigate must be read from the attached MAU chart, but no chart is attached, and no tool returns monthly active users. Picking a month would be a guess. The agent should ask for the chart (or the monthly figures).',
  },
];

// ---------------------------------------------------------------------------------------------
// holistic_efficiency. Each case keeps the query of its holistic_planning base (`from`), prices
// the base tools (`costs`), and adds composite and trap tools. `chain` is the cheapest valid path;
// `separate` is the same work done with the base tools only (the plan states both totals).
// ---------------------------------------------------------------------------------------------

export const EFFICIENCY = [
  {
    n: '01',
    from: '01',
    costs: { search_flights: 2, get_fare_rules: 1, book_flight: 4, add_checked_bag: 2, send_email: 1, search_hotels: 2, get_weather_forecast: 1, convert_currency: 1 },
    composites: [
      tool('book_cheapest_flight', 'Searches offers for a route and date and books the cheapest one meeting the limits in one call; returns the booking reference and flight details.', {
        origin: 'string: IATA code of the departure airport',
        destination: 'string: IATA code of the arrival airport',
        date: 'string: YYYY-MM-DD',
        cabin: 'string[economy|premium_economy|business]: Cabin class',
        max_stops: 'integer: Maximum stops',
        max_price: 'number: Fare cap per traveller',
        currency: 'string: ISO 4217 code',
        latest_arrival: 'string: Latest local arrival time, HH:MM',
        traveller_profile_id: 'string: Traveller profile id',
      }),
      tool('book_flight_with_bags', 'Books a flight offer and adds checked bags in one call.', {
        flight_id: 'string: Offer id from search_flights',
        traveller_profile_id: 'string: Traveller profile id',
        checked_bags: 'integer: Bags to add',
      }),
      tool('book_cheapest_flight_with_bags', 'Searches, books the cheapest offer meeting the limits and adds checked bags, all in one call; returns the booking reference and itinerary.', {
        origin: 'string: IATA code of the departure airport',
        destination: 'string: IATA code of the arrival airport',
        date: 'string: YYYY-MM-DD',
        cabin: 'string[economy|premium_economy|business]: Cabin class',
        max_stops: 'integer: Maximum stops',
        max_price: 'number: Fare cap per traveller',
        currency: 'string: ISO 4217 code',
        latest_arrival: 'string: Latest local arrival time, HH:MM',
        traveller_profile_id: 'string: Traveller profile id',
        checked_bags: 'integer: Bags to add',
      }),
    ],
    compositeCosts: { book_cheapest_flight: 4, book_flight_with_bags: 5, book_cheapest_flight_with_bags: 5 },
    traps: [
      tool('search_flights_premium', 'Flight search with live seat maps and fare-drop predictions.', {
        origin: 'string: IATA code',
        destination: 'string: IATA code',
        date: 'string: YYYY-MM-DD',
      }),
      tool('concierge_book_trip', 'Hands the whole trip request to a human travel concierge, who books flights, hotels and extras.', {
        request: 'string: Free-text description of the trip',
      }),
      tool('add_travel_insurance', 'Adds a travel insurance policy to a booking.', { booking_reference: 'string: Booking reference' }),
    ],
    trapCosts: { search_flights_premium: 6, concierge_book_trip: 12, add_travel_insurance: 3 },
    chain: [
      call('book_cheapest_flight_with_bags', { origin: 'LIS', destination: 'AMS', date: '2025-03-14', cabin: 'economy', max_stops: 0, max_price: 180, currency: 'EUR', latest_arrival: '13:00', traveller_profile_id: 'TP-4471', checked_bags: 1 }, 'One call covers search, booking and the bag (cost 5 instead of 2 + 4 + 2).'),
      call('send_email', { to: 'ines.moreira@example.com', subject: 'Your flight Lisbon to Amsterdam on 14 March 2025', body: '<itinerary and booking reference from step 1>' }, 'Send the itinerary to the traveller.'),
    ],
    planSteps: [
      '1. Book with book_cheapest_flight_with_bags: LIS to AMS on 2025-03-14, economy, direct, at most EUR 180, landing by 13:00, profile TP-4471, one bag (cost 5).',
      '2. Email the itinerary to ines.moreira@example.com (cost 1).',
    ],
    separate: ['search_flights', 'book_flight', 'add_checked_bag', 'send_email'],
  },
  {
    n: '02',
    from: '02',
    costs: { get_order_details: 1, check_return_eligibility: 1, create_return_label: 2, issue_refund: 3, reply_to_ticket: 1, get_customer_profile: 1, apply_coupon: 1, track_shipment: 1, update_shipping_address: 2 },
    composites: [
      tool('verify_return', 'Loads an order and checks the return eligibility of one line in a single call; returns the order summary and the eligibility verdict.', {
        order_id: 'string: Order id',
        sku: 'string: SKU of the order line',
        reason: 'string[damaged|wrong_item|wrong_size|not_as_described|changed_mind]: Return reason',
      }),
      tool('return_and_refund', 'Creates the prepaid return label and refunds the line in one call; returns the label link and refund reference.', {
        order_id: 'string: Order id',
        sku: 'string: SKU of the line',
        method: 'string[original_payment|store_credit]: Where the money goes',
      }),
      tool('label_and_notify', 'Creates a prepaid return label and posts its link on a ticket.', {
        order_id: 'string: Order id',
        sku: 'string: SKU of the line',
        ticket_id: 'string: Ticket id',
      }),
    ],
    compositeCosts: { verify_return: 1, return_and_refund: 3, label_and_notify: 2 },
    traps: [
      tool('priority_refund', 'Instant refund that reaches the card within minutes, for a premium processing fee.', {
        order_id: 'string: Order id',
        sku: 'string: SKU',
      }),
      tool('escalate_to_supervisor', 'Hands the ticket to a human supervisor.', {
        ticket_id: 'string: Ticket id',
        note: 'string: Handover note',
      }),
      tool('fetch_full_customer_history', 'Returns every order, ticket and call of a customer since sign-up.', { customer_id: 'string: Customer id' }),
    ],
    trapCosts: { priority_refund: 7, escalate_to_supervisor: 4, fetch_full_customer_history: 5 },
    chain: [
      call('verify_return', { order_id: 'BC-58213', sku: 'BL-900', reason: 'damaged' }, 'Order check and eligibility check in one call (cost 1 instead of 1 + 1).'),
      call('return_and_refund', { order_id: 'BC-58213', sku: 'BL-900', method: 'original_payment' }, 'Label plus card refund in one call (cost 3 instead of 2 + 3).'),
      call('reply_to_ticket', { ticket_id: 'T-77120', message: '<label link and refund reference from step 2>' }, 'Confirm the outcome on the ticket.'),
    ],
    planSteps: [
      '1. verify_return for BC-58213 / BL-900, reason damaged (cost 1).',
      '2. return_and_refund to the original payment method (cost 3).',
      '3. Reply on T-77120 with the label link and refund reference (cost 1).',
    ],
    separate: ['get_order_details', 'check_return_eligibility', 'create_return_label', 'issue_refund', 'reply_to_ticket'],
  },
  {
    n: '03',
    from: '03',
    costs: { load_csv: 1, filter_rows: 1, aggregate: 2, sort_rows: 1, create_sheet: 1, insert_chart: 2, export_pdf: 2, post_message: 1 },
    composites: [
      tool('load_filtered_csv', 'Loads an attached CSV and keeps the rows that satisfy one condition; returns a table_id.', {
        file_name: 'string: Attached file',
        has_header: 'boolean: First row holds column names',
        column: 'string: Column to test',
        operator: 'string[equals|not_equals|greater_than|less_than|contains]: Comparison',
        value: 'string: Value to compare with',
      }),
      tool('filter_and_aggregate', 'Filters a table on one condition and then groups and aggregates it; returns a table_id with <group_by> and <column>_<function>.', {
        table_id: 'string: Input table',
        filter_column: 'string: Column to test',
        operator: 'string[equals|not_equals|greater_than|less_than|contains]: Comparison',
        value: 'string: Value to compare with',
        group_by: 'string: Column to group by',
        column: 'string: Column to aggregate',
        function: 'string[sum|mean|count|min|max]: Aggregate function',
      }),
      tool('csv_group_summary', 'Loads an attached CSV, filters it on one condition and aggregates it by group, in one call; returns a table_id with <group_by> and <column>_<function>.', {
        file_name: 'string: Attached file',
        has_header: 'boolean: First row holds column names',
        filter_column: 'string: Column to test',
        operator: 'string[equals|not_equals|greater_than|less_than|contains]: Comparison',
        value: 'string: Value to compare with',
        group_by: 'string: Column to group by',
        column: 'string: Column to aggregate',
        function: 'string[sum|mean|count|min|max]: Aggregate function',
      }),
      tool('chart_in_new_sheet', 'Adds a sheet to a workbook and draws a chart of a table on it, in one call.', {
        workbook_id: 'string: Workbook id',
        sheet_name: 'string: Name of the new sheet',
        table_id: 'string: Table holding the data',
        chart_type: 'string[bar|line|pie]: Chart type',
        x_column: 'string: Column for categories',
        y_column: 'string: Column for values',
        title: 'string: Chart title',
      }),
    ],
    compositeCosts: { load_filtered_csv: 1, filter_and_aggregate: 2, csv_group_summary: 2, chart_in_new_sheet: 2 },
    traps: [
      tool('ai_insights_report', 'Generates a narrative analysis of any attached dataset with charts and commentary.', { file_name: 'string: Attached file' }),
      tool('export_to_bi_dashboard', 'Publishes a table to the company BI dashboard.', {
        table_id: 'string: Table',
        dashboard: 'string: Dashboard name',
      }),
      tool('recalculate_workbook', 'Recalculates every formula of a workbook.', { workbook_id: 'string: Workbook id' }),
    ],
    trapCosts: { ai_insights_report: 9, export_to_bi_dashboard: 6, recalculate_workbook: 3 },
    chain: [
      call('csv_group_summary', { file_name: 'sales_q3_2024.csv', has_header: true, filter_column: 'product_line', operator: 'not_equals', value: 'Samples', group_by: 'region', column: 'revenue_eur', function: 'sum' }, 'Load, drop Samples and sum by region in one call (cost 2 instead of 1 + 1 + 2).'),
      call('chart_in_new_sheet', { workbook_id: 'WB-2024-SALES', sheet_name: 'Q3 by region', table_id: '<table_id from step 1>', chart_type: 'bar', x_column: 'region', y_column: 'revenue_eur_sum', title: 'Q3 2024 revenue by region (excluding Samples)' }, 'New sheet and bar chart in one call (cost 2 instead of 1 + 2).'),
      call('post_message', { channel: '#sales-leads', text: '<leading region and its Q3 revenue from step 1>' }, 'Tell the regional leads.'),
    ],
    planSteps: [
      '1. csv_group_summary on sales_q3_2024.csv: product_line not_equals Samples, sum of revenue_eur by region (cost 2).',
      '2. chart_in_new_sheet: bar chart of the totals on the new sheet "Q3 by region" of WB-2024-SALES (cost 2).',
      '3. Post the leading region and its total in #sales-leads (cost 1).',
    ],
    separate: ['load_csv', 'filter_rows', 'aggregate', 'create_sheet', 'insert_chart', 'post_message'],
  },
  {
    n: '04',
    from: '04',
    costs: { get_alert: 1, list_deployments: 1, search_logs: 3, get_metrics: 2, rollback_deployment: 4, restart_pods: 2, scale_service: 2, post_incident_update: 1, create_jira_ticket: 1, page_oncall: 2 },
    composites: [
      tool('correlate_errors_with_deploys', 'Lists a service\'s deployments since a time together with the count of matching error log lines before and after each one.', {
        service: 'string: Service name',
        environment: 'string[production|staging]: Environment',
        since: 'string: ISO 8601 timestamp (UTC)',
        query: 'string: Log search expression',
      }),
      tool('triage_alert', 'Reads an alert and returns it with the affected service\'s deployments of the preceding 24 hours (health marks included) and the matching log lines around the alert start.', {
        alert_id: 'string: Alert id',
        log_query: 'string: Log search expression',
        log_level: 'string[error|warn|info]: Minimum log level',
      }),
      tool('rollback_and_announce', 'Rolls a service back to an earlier deployment and posts the result as an incident update, in one call.', {
        service: 'string: Service name',
        environment: 'string[production|staging]: Environment',
        target_deployment_id: 'string: Deployment to return to',
        channel: 'string: Incident channel',
        incident_id: 'string: Incident id',
        message: 'string: Update text; the rollback result is appended',
      }),
    ],
    compositeCosts: { correlate_errors_with_deploys: 2, triage_alert: 2, rollback_and_announce: 4 },
    traps: [
      tool('auto_remediate', 'Lets the remediation engine restart, scale or roll back a service as it sees fit.', {
        service: 'string: Service name',
        environment: 'string[production|staging]: Environment',
      }),
      tool('full_log_export', 'Exports a full day of a service\'s logs to object storage.', {
        service: 'string: Service name',
        date: 'string: YYYY-MM-DD',
      }),
      tool('status_page_broadcast', 'Publishes a notice on the public customer status page.', { message: 'string: Notice text' }),
    ],
    trapCosts: { auto_remediate: 10, full_log_export: 6, status_page_broadcast: 3 },
    chain: [
      call('triage_alert', { alert_id: 'ALR-3391', log_query: 'status>=500', log_level: 'error' }, 'Alert, today\'s deployments and the error logs in one call (cost 2 instead of 1 + 1 + 3); enough to confirm the correlation.'),
      call('rollback_and_announce', { service: 'checkout-api', environment: 'production', target_deployment_id: '<most recent deployment marked healthy from step 1>', channel: '#inc-payments', incident_id: 'INC-2207', message: '<cause confirmed in step 1>' }, 'Rollback and incident update in one call (cost 4 instead of 4 + 1).'),
    ],
    planSteps: [
      '1. triage_alert for ALR-3391 with log query status>=500 at level error, and check that the errors start right after the newest deployment (cost 2).',
      '2. With the correlation confirmed, rollback_and_announce to the most recent healthy deployment, reporting in #inc-payments for INC-2207 (cost 4).',
    ],
    separate: ['get_alert', 'list_deployments', 'search_logs', 'rollback_deployment', 'post_incident_update'],
  },
  {
    n: '05',
    from: '05',
    costs: { lookup_contact: 1, find_common_free_slots: 2, book_room: 2, create_calendar_event: 2, send_email: 1, list_events: 1, cancel_event: 1 },
    composites: [
      tool('lookup_contacts', 'Finds several colleagues in the directory in one call; returns their emails in the order given.', {
        names: 'string[]: Full names',
      }),
      tool('find_slot_and_room', 'Finds the earliest common free slot and holds a free room for it, in one call.', {
        attendee_emails: 'string[]: Attendee addresses (the organiser is always included)',
        duration_minutes: 'integer: Meeting length',
        range_start: 'string: YYYY-MM-DD',
        range_end: 'string: YYYY-MM-DD',
        working_hours_start: 'string: HH:MM',
        working_hours_end: 'string: HH:MM',
        timezone: 'string: IANA time zone',
        capacity: 'integer: Seats needed',
        'floor?': 'integer: Preferred floor',
      }),
      tool('schedule_meeting_with_room', 'Finds the earliest common free slot, books a room for it and sends the invitations, in one call.', {
        title: 'string: Event title',
        attendee_emails: 'string[]: Attendee addresses (the organiser is always included)',
        duration_minutes: 'integer: Meeting length',
        range_start: 'string: YYYY-MM-DD',
        range_end: 'string: YYYY-MM-DD',
        working_hours_start: 'string: HH:MM',
        working_hours_end: 'string: HH:MM',
        timezone: 'string: IANA time zone',
        capacity: 'integer: Seats needed',
        'floor?': 'integer: Preferred floor',
        'description?': 'string: Invitation text',
      }),
    ],
    compositeCosts: { lookup_contacts: 1, find_slot_and_room: 3, schedule_meeting_with_room: 4 },
    traps: [
      tool('executive_assistant_request', 'Asks a human assistant to organise a meeting from a free-text note.', { note: 'string: What to organise' }),
      tool('book_boardroom', 'Books the 20-seat boardroom on the top floor, with catering.', {
        start: 'string: ISO 8601 start',
        end: 'string: ISO 8601 end',
      }),
    ],
    trapCosts: { executive_assistant_request: 8, book_boardroom: 5 },
    chain: [
      call('lookup_contacts', { names: ['Priya Nair', 'Tom Becker', 'Lena Okafor'] }, 'All three emails in one call (cost 1 instead of 3 x 1).'),
      call('schedule_meeting_with_room', { title: 'Q2 roadmap review', attendee_emails: ['<Priya Nair\'s email from step 1>', '<Tom Becker\'s email from step 1>', '<Lena Okafor\'s email from step 1>'], duration_minutes: 45, range_start: '2025-03-11', range_end: '2025-03-13', working_hours_start: '10:00', working_hours_end: '16:00', timezone: 'Europe/Berlin', capacity: 4, floor: 3, description: 'Agenda: https://docs.example.com/d/roadmap-q2' }, 'Slot, room and invitations in one call (cost 4 instead of 2 + 2 + 2).'),
    ],
    planSteps: [
      '1. lookup_contacts for Priya Nair, Tom Becker and Lena Okafor (cost 1).',
      '2. schedule_meeting_with_room: 45 minutes, 11-13 March, 10:00-16:00 Europe/Berlin, 4 seats on floor 3, agenda link in the description (cost 4).',
    ],
    separate: ['lookup_contact', 'lookup_contact', 'lookup_contact', 'find_common_free_slots', 'book_room', 'create_calendar_event'],
  },
  {
    n: '06',
    from: '06',
    costs: { find_patient: 1, check_insurance_coverage: 2, list_available_slots: 1, book_appointment: 3, send_sms: 1, get_clinician_profile: 1, cancel_appointment: 2, request_prescription_refill: 2, get_lab_results: 2 },
    composites: [
      tool('verify_patient_coverage', 'Identifies a patient by name and date of birth and checks their insurance coverage for a service, in one call; returns patient_id and the coverage verdict.', {
        full_name: 'string: Patient\'s full name',
        date_of_birth: 'string: YYYY-MM-DD',
        insurer: 'string: Insurer name',
        member_id: 'string: Member id',
        service_type: 'string[primary_care|dermatology|cardiology|physiotherapy]: Service',
      }),
      tool('book_and_confirm', 'Books a slot and texts the confirmation to the patient, in one call.', {
        patient_id: 'string: Patient id',
        slot_id: 'string: Slot id',
        visit_type: 'string[new_patient|follow_up]: Visit type',
      }),
      tool('book_earliest_slot_and_notify', 'Books the earliest free slot of a clinician in a date range and texts the confirmation to the patient, in one call.', {
        patient_id: 'string: Patient id',
        clinician_name: 'string: Clinician\'s name without title',
        from_date: 'string: YYYY-MM-DD',
        to_date: 'string: YYYY-MM-DD',
        time_of_day: 'string[any|morning|afternoon]: Part of the day',
        visit_type: 'string[new_patient|follow_up]: Visit type',
      }),
    ],
    compositeCosts: { verify_patient_coverage: 2, book_and_confirm: 3, book_earliest_slot_and_notify: 3 },
    traps: [
      tool('priority_booking_line', 'Calls the clinic\'s priority phone line to request a slot on the patient\'s behalf.', {
        patient_id: 'string: Patient id',
        clinician_name: 'string: Clinician',
      }),
      tool('get_full_medical_history', 'Returns the patient\'s complete medical record.', { patient_id: 'string: Patient id' }),
      tool('second_opinion_referral', 'Refers the patient to another specialist for a second opinion.', {
        patient_id: 'string: Patient id',
        specialty: 'string: Specialty',
      }),
    ],
    trapCosts: { priority_booking_line: 8, get_full_medical_history: 4, second_opinion_referral: 3 },
    chain: [
      call('verify_patient_coverage', { full_name: 'Daniel Reyes', date_of_birth: '1987-09-22', insurer: 'Meridian Health', member_id: 'MH-0098231', service_type: 'dermatology' }, 'Identity and coverage in one call (cost 2 instead of 1 + 2).'),
      call('book_earliest_slot_and_notify', { patient_id: '<patient_id from step 1>', clinician_name: 'Amara Chen', from_date: '2025-03-05', to_date: '2025-03-19', time_of_day: 'morning', visit_type: 'follow_up' }, 'Earliest morning slot, booking and SMS in one call (cost 3 instead of 1 + 3 + 1).'),
    ],
    planSteps: [
      '1. verify_patient_coverage for Daniel Reyes (1987-09-22), Meridian Health MH-0098231, dermatology (cost 2).',
      '2. book_earliest_slot_and_notify with Amara Chen, mornings, 2025-03-05 to 2025-03-19, follow-up (cost 3).',
    ],
    separate: ['find_patient', 'check_insurance_coverage', 'list_available_slots', 'book_appointment', 'send_sms'],
  },
  {
    n: '07',
    from: '07',
    costs: { get_exchange_rate: 1, add_expense_line: 2, attach_receipt: 1, submit_report: 2, list_expense_reports: 1, create_expense_report: 2, delete_expense_line: 1, get_per_diem_rate: 1 },
    composites: [
      tool('add_expense_with_receipt', 'Adds an expense line and attaches its receipt image, in one call.', {
        report_id: 'string: Expense report id',
        category: 'string[travel|lodging|meals|client_entertainment|office_supplies|other]: Expense category',
        merchant: 'string: Merchant name',
        expense_date: 'string: YYYY-MM-DD',
        amount: 'number: Amount in the original currency',
        currency: 'string: ISO 4217 code',
        exchange_rate_id: 'string: rate_id from get_exchange_rate',
        file_name: 'string: Attached receipt image',
        'guests?': 'string: Who attended',
      }),
      tool('add_foreign_expense', 'Looks up the reference rate of the expense date, adds the expense line in the booking currency and attaches the receipt, in one call.', {
        report_id: 'string: Expense report id',
        category: 'string[travel|lodging|meals|client_entertainment|office_supplies|other]: Expense category',
        merchant: 'string: Merchant name',
        expense_date: 'string: YYYY-MM-DD (also the rate date)',
        amount: 'number: Amount in the original currency',
        currency: 'string: ISO 4217 code of the original currency',
        file_name: 'string: Attached receipt image',
        'guests?': 'string: Who attended',
      }),
      tool('attach_and_submit', 'Attaches a receipt to a line and submits the report, in one call.', {
        report_id: 'string: Expense report id',
        expense_line_id: 'string: Line id',
        file_name: 'string: Attached receipt image',
      }),
    ],
    compositeCosts: { add_expense_with_receipt: 2, add_foreign_expense: 2, attach_and_submit: 2 },
    traps: [
      tool('expense_concierge_upload', 'Sends receipt images to a back-office team that keys the expenses in for you.', { file_name: 'string: Attached image' }),
      tool('get_live_fx_quote', 'Returns the live market exchange rate right now.', {
        from_currency: 'string: ISO 4217 code',
        to_currency: 'string: ISO 4217 code',
      }),
    ],
    trapCosts: { expense_concierge_upload: 6, get_live_fx_quote: 3 },
    chain: [
      call('add_foreign_expense', { report_id: 'ER-2025-031', category: 'client_entertainment', merchant: 'Trattoria Da Paolo', expense_date: '2025-02-27', amount: 186.5, currency: 'EUR', file_name: 'receipt_trattoria_da_paolo.png', guests: 'Two guests from Lumen Analytics' }, 'Rate of the receipt date, line and attachment in one call (cost 2 instead of 1 + 2 + 1).'),
      call('submit_report', { report_id: 'ER-2025-031' }, 'Send the report for approval.'),
    ],
    planSteps: [
      '1. Read the receipt (Trattoria Da Paolo, 27/02/2025, EUR 186.50) and call add_foreign_expense on ER-2025-031 as client_entertainment with the photo (cost 2).',
      '2. Submit the report (cost 2).',
    ],
    separate: ['get_exchange_rate', 'add_expense_line', 'attach_receipt', 'submit_report'],
  },
  {
    n: '08',
    from: '09',
    costs: { get_release_notes: 2, search_support_tickets: 2, create_document: 2, get_app_store_reviews: 2, list_experiments: 1, share_document: 1, get_marketing_calendar: 1 },
    composites: [
      tool('month_incident_digest', 'Returns the release notes and the support tickets with a given tag for one period, in one call.', {
        start_date: 'string: YYYY-MM-DD',
        end_date: 'string: YYYY-MM-DD',
        ticket_tag: 'string: Ticket tag',
      }),
      tool('draft_memo_with_release_notes', 'Creates a document that starts with the release notes of a period, followed by your text.', {
        start_date: 'string: YYYY-MM-DD',
        end_date: 'string: YYYY-MM-DD',
        folder: 'string: Folder name',
        title: 'string: Document title',
        content: 'string: Text added after the release notes',
      }),
      tool('investigate_and_write_memo', 'Pulls the release notes and the tagged support tickets of a period and writes them, with your findings, into a new memo, in one call; returns the memo link and what it found.', {
        start_date: 'string: YYYY-MM-DD',
        end_date: 'string: YYYY-MM-DD',
        ticket_tag: 'string: Ticket tag',
        folder: 'string: Folder name',
        title: 'string: Memo title',
        notes: 'string: Your findings, placed at the top of the memo',
      }),
    ],
    compositeCosts: { month_incident_digest: 3, draft_memo_with_release_notes: 3, investigate_and_write_memo: 4 },
    traps: [
      tool('churn_prediction_model', 'Trains a churn model on the user base and explains its main drivers.', { period: 'string: YYYY or YYYY-MM' }),
      tool('market_research_survey', 'Launches a paid survey panel about the app.', { question: 'string: Survey question' }),
    ],
    trapCosts: { churn_prediction_model: 9, market_research_survey: 7 },
    chain: [
      call('investigate_and_write_memo', { start_date: '2024-08-01', end_date: '2024-08-31', ticket_tag: 'login', folder: 'Product Insights', title: 'MAU dip analysis', notes: 'Monthly active users fell from 148k in July to 121k in August 2024 (-27k, about -18%), the largest month-over-month drop of the year.' }, 'The chart shows the largest drop in August; release notes, login tickets and the memo in one call (cost 4 instead of 2 + 2 + 2).'),
    ],
    planSteps: [
      '1. Read the chart: August 2024 has the largest drop (148k to 121k).',
      '2. investigate_and_write_memo for 2024-08-01 to 2024-08-31, tag login, titled "MAU dip analysis" in Product Insights, with the drop as the opening finding (cost 4).',
    ],
    separate: ['get_release_notes', 'search_support_tickets', 'create_document'],
  },
  {
    n: '09',
    from: '10',
    costs: { calculate_date: 1, create_calendar_reminder: 2, send_email: 1, search_contracts: 1, get_supplier_contact: 1, translate_text: 2, summarize_document: 2 },
    composites: [
      tool('reminder_before_deadline', 'Creates a calendar reminder a number of business days before a deadline, in one call; returns the reminder date.', {
        calendar: 'string: Calendar name',
        deadline_date: 'string: YYYY-MM-DD',
        business_days_before: 'integer: Business days before the deadline',
        title: 'string: Reminder title',
        'notes?': 'string: Details',
      }),
      tool('plan_notice_reminder', 'Computes a notice deadline (renewal date minus notice days) and creates a reminder a number of business days before it, in one call; returns both dates.', {
        renewal_date: 'string: YYYY-MM-DD',
        notice_days: 'integer: Calendar days of notice required',
        business_days_before: 'integer: Business days between the reminder and the deadline',
        calendar: 'string: Calendar name',
        title: 'string: Reminder title',
        'notes?': 'string: Details',
      }),
      tool('schedule_and_email_reminder', 'Creates a calendar reminder and emails its details to someone, in one call.', {
        calendar: 'string: Calendar name',
        date: 'string: YYYY-MM-DD',
        title: 'string: Reminder title',
        email_to: 'string: Recipient address',
        email_body: 'string: Email text',
      }),
    ],
    compositeCosts: { reminder_before_deadline: 2, plan_notice_reminder: 2, schedule_and_email_reminder: 2 },
    traps: [
      tool('contract_renewal_workflow', 'Starts the full contract-renewal workflow: legal review, supplier negotiation and approvals.', { supplier: 'string: Supplier name' }),
      tool('legal_review_request', 'Asks outside counsel to review a contract.', {
        file_name: 'string: Attached contract',
        question: 'string: What to review',
      }),
    ],
    trapCosts: { contract_renewal_workflow: 9, legal_review_request: 5 },
    chain: [
      call('plan_notice_reminder', { renewal_date: '2025-06-01', notice_days: 60, business_days_before: 10, calendar: 'legal-team', title: 'CloudPeak MSA: non-renewal notice due', notes: 'Clause 9.2: written notice to legal@cloudpeak.example at least 60 calendar days before 2025-06-01.' }, 'Deadline, reminder date and reminder in one call (cost 2 instead of 1 + 1 + 2).'),
      call('send_email', { to: 'marta.silva@example.com', subject: 'CloudPeak hosting contract: non-renewal notice deadline', body: '<notice deadline and reminder date from step 1, clause 9.2>' }, 'Tell procurement the deadline and its source.'),
    ],
    planSteps: [
      '1. Renewal date 2025-06-01 (24 months from 1 June 2023); § 9.2 needs 60 calendar days of notice. plan_notice_reminder with 10 business days of lead time in the legal-team calendar (cost 2).',
      '2. Email marta.silva@example.com with the deadline and clause § 9.2 (cost 1).',
    ],
    separate: ['calculate_date', 'calculate_date', 'create_calendar_reminder', 'send_email'],
  },
];
