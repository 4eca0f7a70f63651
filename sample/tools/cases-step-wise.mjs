/**
 * Step-wise base cases of the apb sample (split step_wise_planning). Each one carries the full
 * reference chain, where the executed prefix is cut (`cut` steps done), the prediction horizon, the
 * executed steps' thoughts and observations, the distractors of its step_wise_tool_extraneous
 * variant and the broken-tool setup of its step_wise_tool_broken variant.
 * `shape: 'openai'` writes the prefix as OpenAI chat messages instead of the converted
 * `{step, thought, tool, arguments, observation}` entries. Every value here is fictional.
 */
import { call, tool } from './lib.mjs';

const j = (value) => JSON.stringify(value);

export const STEP_WISE_BASES = [
  // ------------------------------------------------------------------------------------------
  {
    n: '01',
    family: 'travel',
    category: 'Travel & Itinerary Planning',
    subset: 'hotels',
    shape: 'converted',
    query:
      'I am at the Munich trade fair from 24 to 27 March 2025. Book a hotel near Messe München for those three nights, at most EUR 160 a night and with free cancellation; pick the one closest to the fair grounds. Also book an airport transfer for my arrival on LH2413, landing at MUC at 10:35 on the 24th, and add both bookings to trip TR-5520. My traveller profile is TP-1902.',
    tools: [
      tool('search_hotels', 'Searches hotels near a landmark. Returns hotel_id, name, address, distance, nightly rate and whether free cancellation is offered.', {
        city: 'string: City',
        near: 'string: Landmark or address to measure distance from',
        check_in: 'string: YYYY-MM-DD',
        check_out: 'string: YYYY-MM-DD',
        'max_price_per_night?': 'number: Upper nightly rate',
        'currency?': 'string: ISO 4217 code',
        'free_cancellation?': 'boolean: Only offers with free cancellation',
      }),
      tool('get_hotel_details', 'Returns a hotel\'s room types (room_code, rate, cancellation deadline) and amenities.', {
        hotel_id: 'string: Hotel id from search_hotels',
      }),
      tool('book_hotel', 'Books a room and returns the confirmation number.', {
        hotel_id: 'string: Hotel id',
        room_code: 'string: Room code from get_hotel_details',
        check_in: 'string: YYYY-MM-DD',
        check_out: 'string: YYYY-MM-DD',
        traveller_profile_id: 'string: Traveller profile id',
      }),
      tool('book_airport_transfer', 'Books a private transfer from an airport to an address, timed to a flight arrival.', {
        airport: 'string: IATA code',
        flight_number: 'string: Flight number, e.g. LH123',
        arrival_time: 'string: Scheduled local arrival, ISO 8601',
        destination_address: 'string: Drop-off address',
        passengers: 'integer: Number of passengers',
      }),
      tool('add_to_trip', 'Adds bookings to a trip file so they appear on the itinerary and the expense report.', {
        trip_id: 'string: Trip id',
        booking_references: 'string[]: Confirmation numbers to add',
      }),
      tool('search_flights', 'Searches bookable flights for one date and route.', {
        origin: 'string: IATA code',
        destination: 'string: IATA code',
        date: 'string: YYYY-MM-DD',
      }),
      tool('cancel_booking', 'Cancels a hotel or transfer booking.', { booking_reference: 'string: Confirmation number' }),
      tool('get_weather_forecast', 'Returns the daily forecast for a city.', {
        city: 'string: City',
        date: 'string: YYYY-MM-DD',
      }),
    ],
    chain: [
      call('search_hotels', { city: 'Munich', near: 'Messe München', check_in: '2025-03-24', check_out: '2025-03-27', max_price_per_night: 160, currency: 'EUR', free_cancellation: true }, 'Find hotels near the fair within the nightly limit and with free cancellation.'),
      call('get_hotel_details', { hotel_id: 'HT-88213' }, 'Hotel Riemer Hof is the closest match (0.6 km); get its room codes and cancellation terms before booking.'),
      call('book_hotel', { hotel_id: 'HT-88213', room_code: '<room_code of the free-cancellation room under EUR 160 from the previous step>', check_in: '2025-03-24', check_out: '2025-03-27', traveller_profile_id: 'TP-1902' }, 'Book the three nights on the traveller\'s profile.'),
      call('book_airport_transfer', { airport: 'MUC', flight_number: 'LH2413', arrival_time: '2025-03-24T10:35', destination_address: 'Am Messesee 4, 81829 München', passengers: 1 }, 'Transfer from MUC timed to LH2413, to the hotel address from the search results.'),
      call('add_to_trip', { trip_id: 'TR-5520', booking_references: ['<hotel confirmation from book_hotel>', '<transfer confirmation from book_airport_transfer>'] }, 'Attach both bookings to the trip.'),
    ],
    cut: 1,
    horizon: 3,
    prefix: [
      {
        thought: 'Search for hotels near Messe München for 24-27 March, capped at EUR 160 a night with free cancellation.',
        observation: j({
          results: [
            { hotel_id: 'HT-88213', name: 'Hotel Riemer Hof', address: 'Am Messesee 4, 81829 München', distance_km: 0.6, price_per_night: 149, currency: 'EUR', free_cancellation: true, rating: 4.3 },
            { hotel_id: 'HT-40177', name: 'Messe Suites Riem', address: 'Willy-Brandt-Allee 12, 81829 München', distance_km: 0.9, price_per_night: 158, currency: 'EUR', free_cancellation: true, rating: 4.1 },
            { hotel_id: 'HT-51960', name: 'Parkhotel Trudering', address: 'Wasserburger Landstraße 71, 81825 München', distance_km: 2.7, price_per_night: 121, currency: 'EUR', free_cancellation: true, rating: 3.9 },
          ],
        }),
      },
    ],
    distractorLevel: 4,
    distractors: [
      tool('get_hotel_photos', 'Returns photo links of a hotel.', { hotel_id: 'string: Hotel id' }),
      tool('get_city_events', 'Lists concerts and events in a city on a date.', {
        city: 'string: City',
        date: 'string: YYYY-MM-DD',
      }),
      tool('get_restaurant_recommendations', 'Suggests restaurants near an address.', {
        city: 'string: City',
        near: 'string: Address or landmark',
      }),
      tool('get_loyalty_points', 'Returns the points balance of a hotel loyalty membership.', {
        program: 'string: Loyalty programme',
        member_id: 'string: Member number',
      }),
    ],
    broken: {
      replacement: {
        name: 'fetch_property_profile',
        description: 'Reads a hotel property\'s content record: room types with room_code, rate and cancellation deadline, plus amenities.',
      },
      error: 'HTTP 503 Service Unavailable: hotel-content upstream is not responding (Retry-After: 900).',
      reason: 'The hotel details service is down; the property profile service returns the same room codes and cancellation terms for HT-88213.',
    },
  },
  // ------------------------------------------------------------------------------------------
  {
    n: '02',
    family: 'ecommerce_support',
    category: 'Customer Support',
    subset: 'exchanges',
    shape: 'converted',
    systemPrompt:
      'You are a support agent for Brightcart, an online home-goods shop. Follow the attached returns policy. Today is Wednesday 5 March 2025.',
    query:
      'Hello, the hiking boots in my order BC-61027 are a size 42 and I need a 43. Can you swap them? If the 43 is not available I would rather have a refund. Please email me the return label and reply on ticket T-80455.',
    files: [{ path: 'assets/brightcart_returns_policy.md', type: 'policy_document' }],
    tools: [
      tool('get_order_details', 'Returns an order with its lines (sku, price, status), delivery date, payment method and customer contact.', { order_id: 'string: Order id' }),
      tool('check_return_eligibility', 'Checks whether one order line can be returned under the returns policy and until when.', {
        order_id: 'string: Order id',
        sku: 'string: SKU of the order line',
        reason: 'string[damaged|wrong_item|wrong_size|not_as_described|changed_mind]: Return reason',
      }),
      tool('check_stock', 'Returns the units in stock of a SKU.', { sku: 'string: SKU' }),
      tool('create_exchange', 'Opens an exchange: the old line is returned and the new SKU ships once the label is scanned. Returns exchange_id and shipping estimate.', {
        order_id: 'string: Order id',
        return_sku: 'string: SKU being returned',
        new_sku: 'string: SKU to send instead',
      }),
      tool('issue_refund', 'Refunds one order line.', {
        order_id: 'string: Order id',
        sku: 'string: SKU',
        method: 'string[original_payment|store_credit]: Where the money goes',
      }),
      tool('send_return_label', 'Emails the prepaid return label of an exchange or return to the customer.', {
        exchange_id: 'string: Exchange or return id',
        email: 'string: Customer email',
      }),
      tool('reply_to_ticket', 'Posts a public reply on a customer support ticket.', {
        ticket_id: 'string: Ticket id',
        message: 'string: Reply text',
      }),
      tool('apply_coupon', 'Applies a coupon code to an open order.', {
        order_id: 'string: Order id',
        coupon_code: 'string: Coupon code',
      }),
      tool('update_shipping_address', 'Changes the delivery address of an order that has not shipped yet.', {
        order_id: 'string: Order id',
        address: 'string: Full postal address',
      }),
    ],
    chain: [
      call('get_order_details', { order_id: 'BC-61027' }, 'Find the boots line and the customer\'s contact.'),
      call('check_return_eligibility', { order_id: 'BC-61027', sku: 'HB-310-42', reason: 'wrong_size' }, 'Policy: eligibility first.'),
      call('check_stock', { sku: 'HB-310-43' }, 'An exchange needs the size 43 in stock.'),
      call('create_exchange', { order_id: 'BC-61027', return_sku: 'HB-310-42', new_sku: 'HB-310-43' }, 'Size 43 is in stock (7 units), so exchange rather than refund.'),
      call('send_return_label', { exchange_id: '<exchange_id from create_exchange>', email: 'marek.nowak@example.com' }, 'The customer asked for the label by email; the address is on the order.'),
      call('reply_to_ticket', { ticket_id: 'T-80455', message: '<exchange id and shipping estimate from create_exchange; label sent by email>' }, 'Confirm the outcome on the ticket.'),
    ],
    cut: 3,
    horizon: 2,
    prefix: [
      {
        thought: 'Open the order to find the boots line.',
        observation: j({
          order_id: 'BC-61027',
          status: 'delivered',
          delivered_on: '2025-02-26',
          customer: { name: 'Marek Nowak', email: 'marek.nowak@example.com' },
          payment: 'visa_credit',
          lines: [
            { sku: 'HB-310-42', name: 'Trailhead hiking boots, size 42', qty: 1, price: 129.0, status: 'delivered' },
            { sku: 'SK-044', name: 'Merino hiking socks (2 pairs)', qty: 1, price: 19.0, status: 'delivered' },
          ],
        }),
      },
      {
        thought: 'Check that the boots can be returned for a size change.',
        observation: j({ order_id: 'BC-61027', sku: 'HB-310-42', eligible: true, reason: 'wrong_size', return_by: '2025-03-28', exchange_allowed: true }),
      },
      {
        thought: 'See whether size 43 of the same boot is in stock.',
        observation: j({ sku: 'HB-310-43', name: 'Trailhead hiking boots, size 43', in_stock: 7, warehouse: 'Poznan' }),
      },
    ],
    distractorLevel: 2,
    distractors: [
      tool('get_size_guide', 'Returns the size chart of a product line.', { product_line: 'string: Product line name' }),
      tool('get_product_reviews', 'Returns customer reviews of a product.', {
        sku: 'string: Product SKU',
        'limit?': 'integer: Maximum reviews',
      }),
    ],
    broken: {
      replacement: {
        name: 'open_size_swap',
        description: 'Starts a swap of one delivered item for another variant of the same product; the old item comes back on a prepaid label and the new one ships when it is scanned. Returns exchange_id and shipping estimate.',
      },
      error: 'Timeout: exchange-service did not answer within 30 s (request id ex-7d21).',
      reason: 'The exchange service timed out; open the same swap through the size-swap service.',
    },
  },
  // ------------------------------------------------------------------------------------------
  {
    n: '03',
    family: 'devops',
    category: 'System Operations & Web Engineering',
    subset: 'capacity',
    shape: 'converted',
    systemPrompt:
      'You are the SRE assistant of the analytics database cluster. Runbook DB-07: before deleting WAL archives, confirm that replication is healthy; only remove archives older than 7 days; record what you did on the ops ticket.',
    query:
      'Ticket OPS-4410: disk usage on db-replica-2 is at 93%. Find out what is filling the disk, free space safely following the runbook, and update the ticket when you are done.',
    tools: [
      tool('get_host_metrics', 'Returns current values of a host metric per mount point.', {
        host: 'string: Host name',
        metric: 'string[disk_usage|cpu|memory|load]: Metric',
      }),
      tool('list_large_directories', 'Lists the largest directories under a path.', {
        host: 'string: Host name',
        path: 'string: Absolute path',
        top_n: 'integer: How many to list',
      }),
      tool('list_files', 'Lists files under a path, optionally only those older than N days; returns count, total size and oldest file.', {
        host: 'string: Host name',
        path: 'string: Absolute path',
        'older_than_days?': 'integer: Only files last modified more than N days ago',
      }),
      tool('check_replication_status', 'Returns replication lag and the oldest WAL segment still needed by the replica.', { host: 'string: Host name' }),
      tool('delete_files', 'Deletes files under a path that are older than N days; returns the count and bytes freed.', {
        host: 'string: Host name',
        path: 'string: Absolute path',
        older_than_days: 'integer: Only files older than N days',
        dry_run: 'boolean: List what would be deleted without deleting',
      }),
      tool('update_ticket', 'Adds a comment to an ops ticket and sets its status.', {
        ticket_id: 'string: Ticket id',
        status: 'string[open|in_progress|resolved]: New status',
        comment: 'string: Comment text',
      }),
      tool('restart_service', 'Restarts a systemd service on a host.', {
        host: 'string: Host name',
        service: 'string: Unit name',
      }),
      tool('resize_volume', 'Grows the volume behind a mount point.', {
        host: 'string: Host name',
        mount: 'string: Mount point',
        new_size_gb: 'integer: New size in GB',
      }),
      tool('page_oncall', 'Pages the on-call engineer of a team.', {
        team: 'string: Team name',
        message: 'string: Page text',
      }),
    ],
    chain: [
      call('get_host_metrics', { host: 'db-replica-2', metric: 'disk_usage' }, 'See which mount is full.'),
      call('list_large_directories', { host: 'db-replica-2', path: '/var/lib/postgresql', top_n: 5 }, 'Find what is taking the space.'),
      call('list_files', { host: 'db-replica-2', path: '/var/lib/postgresql/wal_archive', older_than_days: 7 }, 'How much of the WAL archive is older than 7 days.'),
      call('check_replication_status', { host: 'db-replica-2' }, 'Runbook DB-07: confirm replication is healthy first.'),
      call('delete_files', { host: 'db-replica-2', path: '/var/lib/postgresql/wal_archive', older_than_days: 7, dry_run: false }, 'Replication is healthy and needs nothing older than 2025-02-26, so archives older than 7 days can go.'),
      call('update_ticket', { ticket_id: 'OPS-4410', status: 'resolved', comment: '<files and bytes freed by the deletion; cause: WAL archive growth>' }, 'Runbook DB-07: record the action on the ticket.'),
    ],
    cut: 4,
    horizon: 2,
    prefix: [
      {
        thought: 'Check disk usage per mount on db-replica-2.',
        observation: j({ host: 'db-replica-2', metric: 'disk_usage', mounts: [{ mount: '/', used_pct: 41.2 }, { mount: '/var/lib/postgresql', used_pct: 93.4, size_gb: 650, free_gb: 43 }] }),
      },
      {
        thought: 'Find the largest directories on the database volume.',
        observation: j({ path: '/var/lib/postgresql', directories: [{ path: '/var/lib/postgresql/wal_archive', size_gb: 412 }, { path: '/var/lib/postgresql/16/main/base', size_gb: 188 }, { path: '/var/lib/postgresql/16/main/log', size_gb: 9 }] }),
      },
      {
        thought: 'Count the WAL archive files older than 7 days.',
        observation: j({ path: '/var/lib/postgresql/wal_archive', older_than_days: 7, files: 3214, total_size_gb: 371, oldest_modified: '2025-01-30T02:14:00Z' }),
      },
      {
        thought: 'Runbook: confirm replication is healthy before deleting anything.',
        observation: j({ host: 'db-replica-2', state: 'streaming', lag_seconds: 0.8, oldest_wal_needed: '2025-02-26T06:00:00Z', healthy: true }),
      },
    ],
    distractorLevel: 8,
    distractors: [
      tool('get_cpu_temperature', 'Returns the CPU temperature of a host.', { host: 'string: Host name' }),
      tool('list_open_ports', 'Lists listening ports on a host.', { host: 'string: Host name' }),
      tool('get_kernel_version', 'Returns the running kernel version of a host.', { host: 'string: Host name' }),
      tool('list_logged_in_users', 'Lists users with an open shell session on a host.', { host: 'string: Host name' }),
      tool('get_ntp_offset', 'Returns the clock offset of a host against the NTP servers.', { host: 'string: Host name' }),
      tool('check_ssl_certificate', 'Returns the TLS certificate details of a domain.', { domain: 'string: Domain' }),
      tool('get_package_versions', 'Lists installed package versions on a host.', {
        host: 'string: Host name',
        'filter?': 'string: Package name filter',
      }),
      tool('get_rack_location', 'Returns the data-centre rack of a host.', { host: 'string: Host name' }),
    ],
    broken: {
      replacement: {
        name: 'purge_old_files',
        description: 'Removes files under a path last modified more than N days ago; supports a dry run. Returns the count and bytes removed.',
      },
      error: '410 Gone: endpoint /v1/hosts/{host}/files:delete was retired on 2025-03-01; see the file-maintenance API.',
      reason: 'The delete endpoint is retired; the file-maintenance purge does the same removal of archives older than 7 days.',
    },
  },
  // ------------------------------------------------------------------------------------------
  {
    n: '04',
    family: 'clinic_scheduling',
    category: 'Health & Nutrition Management',
    subset: 'appointments',
    shape: 'openai',
    openaiTools: true,
    systemPrompt:
      'You are the scheduling assistant of Harbourside Medical Group. Identify the patient by full name and date of birth first. When moving an appointment, book the new slot before cancelling the old one. Today is Wednesday 5 March 2025.',
    query:
      'Hi, this is Sofia Lindqvist, born 3 April 1991. I can\'t make my physiotherapy session tomorrow morning. Please move it to Friday afternoon this week with the same therapist, and cancel tomorrow\'s.',
    tools: [
      tool('find_patient', 'Finds a patient by full name and date of birth; returns patient_id and upcoming appointments.', {
        full_name: 'string: Full name',
        date_of_birth: 'string: YYYY-MM-DD',
      }),
      tool('list_available_slots', 'Lists free appointment slots of a clinician in a date range, earliest first.', {
        clinician_name: 'string: Clinician\'s name without title',
        from_date: 'string: YYYY-MM-DD',
        to_date: 'string: YYYY-MM-DD',
        'time_of_day?': 'string[any|morning|afternoon]: Part of the day',
      }),
      tool('book_appointment', 'Books a slot for a patient and returns the appointment details.', {
        patient_id: 'string: Patient id',
        slot_id: 'string: Slot id',
        visit_type: 'string[new_patient|follow_up]: Visit type',
      }),
      tool('cancel_appointment', 'Cancels an appointment.', { appointment_id: 'string: Appointment id' }),
      tool('send_sms', 'Texts a patient on the mobile number on file.', {
        patient_id: 'string: Patient id',
        message: 'string: SMS text',
      }),
      tool('get_clinician_profile', 'Returns a clinician\'s specialty, locations and working days.', { clinician_name: 'string: Clinician\'s name' }),
      tool('check_insurance_coverage', 'Checks whether an insurance plan covers a service type.', {
        insurer: 'string: Insurer',
        member_id: 'string: Member id',
        service_type: 'string[primary_care|dermatology|cardiology|physiotherapy]: Service',
      }),
    ],
    chain: [
      call('find_patient', { full_name: 'Sofia Lindqvist', date_of_birth: '1991-04-03' }, 'Identify the patient and see tomorrow\'s appointment.'),
      call('list_available_slots', { clinician_name: 'Jonas Berg', from_date: '2025-03-07', to_date: '2025-03-07', time_of_day: 'afternoon' }, 'Her physio appointment is with Jonas Berg; look for Friday afternoon slots.'),
      call('book_appointment', { patient_id: 'P-20931', slot_id: '<first Friday afternoon slot_id from list_available_slots>', visit_type: 'follow_up' }, 'Book the new slot before cancelling the old one.'),
      call('cancel_appointment', { appointment_id: 'APT-55102' }, 'Cancel tomorrow\'s session once the new one is booked.'),
    ],
    cut: 1,
    horizon: 1,
    prefix: [
      {
        thought: 'First identify the patient by name and date of birth.',
        observation: j({
          patient_id: 'P-20931',
          name: 'Sofia Lindqvist',
          upcoming_appointments: [
            { appointment_id: 'APT-55102', date: '2025-03-06', time: '09:30', clinician: 'Jonas Berg', service: 'physiotherapy', location: 'Harbourside Quay clinic' },
            { appointment_id: 'APT-57740', date: '2025-04-14', time: '11:00', clinician: 'Helen Ward', service: 'primary_care', location: 'Harbourside Quay clinic' },
          ],
        }),
      },
    ],
    distractorLevel: 6,
    distractors: [
      tool('get_clinic_opening_hours', 'Returns the opening hours of a clinic location.', { location: 'string: Location name' }),
      tool('get_parking_info', 'Returns parking options near a clinic location.', { location: 'string: Location name' }),
      tool('get_vaccination_record', 'Returns a patient\'s vaccination history.', { patient_id: 'string: Patient id' }),
      tool('list_clinic_locations', 'Lists the group\'s clinics in a city.', { city: 'string: City' }),
      tool('get_pharmacy_stock', 'Tells whether the in-house pharmacy stocks a medication.', { medication: 'string: Medication name' }),
      tool('translate_text', 'Translates text into another language.', {
        text: 'string: Text',
        target_language: 'string: ISO 639-1 code',
      }),
    ],
    broken: {
      replacement: {
        name: 'find_open_appointments',
        description: 'Returns the bookable appointment times of a clinician between two dates, earliest first, from the clinic\'s booking engine.',
      },
      error: 'HTTP 503 Service Unavailable: scheduling-api is in maintenance, please retry later.',
      reason: 'The slot listing is unavailable; the booking engine lists the same open Friday afternoon times for Jonas Berg.',
    },
  },
  // ------------------------------------------------------------------------------------------
  {
    n: '05',
    family: 'data_analysis',
    category: 'Logistics & Supply Chain',
    subset: 'inventory',
    shape: 'converted',
    query:
      'Check the Stock sheet of workbook WB-OPS-INV for items whose on-hand quantity is below their reorder point. Raise one draft purchase order per supplier for the standard reorder quantity of each of those items, then email the PO numbers to purchasing@example.com.',
    tools: [
      tool('read_sheet', 'Reads a range of a sheet into a table; returns table_id and the first rows.', {
        workbook_id: 'string: Workbook id',
        sheet_name: 'string: Sheet',
        range: 'string: A1-style range',
      }),
      tool('query_table', 'Runs a filter expression over a table and returns the matching rows.', {
        table_id: 'string: Table id',
        where: 'string: Filter expression over column names, e.g. qty > 3',
      }),
      tool('create_purchase_order', 'Creates a draft purchase order for one supplier. Lines are "SKU:quantity" strings. Returns the PO number.', {
        supplier_id: 'string: Supplier id',
        lines: 'string[]: Order lines as SKU:quantity',
      }),
      tool('send_email', 'Sends an email.', {
        to: 'string: Recipient',
        subject: 'string: Subject',
        body: 'string: Body',
      }),
      tool('update_cell', 'Writes a value into a cell.', {
        workbook_id: 'string: Workbook id',
        sheet_name: 'string: Sheet',
        cell: 'string: A1-style cell',
        value: 'string: Value',
      }),
      tool('create_chart', 'Draws a chart of a table on a sheet.', {
        workbook_id: 'string: Workbook id',
        sheet_name: 'string: Sheet',
        table_id: 'string: Table id',
      }),
      tool('get_supplier_details', 'Returns a supplier\'s contact, lead time and payment terms.', { supplier_id: 'string: Supplier id' }),
      tool('list_workbooks', 'Lists the workbooks the user can open.'),
    ],
    chain: [
      call('read_sheet', { workbook_id: 'WB-OPS-INV', sheet_name: 'Stock', range: 'A1:G400' }, 'Load the stock list.'),
      call('query_table', { table_id: 'tbl_7f2c', where: 'on_hand < reorder_point' }, 'Find the items below their reorder point.'),
      call('create_purchase_order', { supplier_id: 'SUP-118', lines: ['FX-1001:500', 'FX-1040:300', 'FX-2210:800'] }, 'One draft PO for Nordic Fasteners with the standard reorder quantities of its three items.'),
      call('create_purchase_order', { supplier_id: 'SUP-204', lines: ['PK-330:1200'] }, 'One draft PO for Alba Packaging for PK-330.'),
      call('send_email', { to: 'purchasing@example.com', subject: 'Draft purchase orders for low-stock items', body: '<PO numbers returned by the two create_purchase_order calls, with their suppliers>' }, 'Send the PO numbers to purchasing.'),
    ],
    cut: 2,
    horizon: 3,
    prefix: [
      {
        thought: 'Read the Stock sheet into a table.',
        observation: j({ table_id: 'tbl_7f2c', rows: 312, columns: ['sku', 'description', 'on_hand', 'reorder_point', 'reorder_qty', 'supplier_id', 'supplier_name'] }),
      },
      {
        thought: 'Keep the rows whose on-hand quantity is under the reorder point.',
        observation: j({
          rows: [
            { sku: 'FX-1001', description: 'M6 hex bolt, zinc', on_hand: 140, reorder_point: 400, reorder_qty: 500, supplier_id: 'SUP-118', supplier_name: 'Nordic Fasteners' },
            { sku: 'FX-1040', description: 'M6 nylon lock nut', on_hand: 95, reorder_point: 250, reorder_qty: 300, supplier_id: 'SUP-118', supplier_name: 'Nordic Fasteners' },
            { sku: 'FX-2210', description: 'Wood screw 4x40', on_hand: 610, reorder_point: 700, reorder_qty: 800, supplier_id: 'SUP-118', supplier_name: 'Nordic Fasteners' },
            { sku: 'PK-330', description: 'Shipping carton 40x30x30', on_hand: 220, reorder_point: 600, reorder_qty: 1200, supplier_id: 'SUP-204', supplier_name: 'Alba Packaging' },
          ],
        }),
      },
    ],
    distractorLevel: 10,
    distractors: [
      tool('forecast_demand', 'Forecasts weekly demand of a SKU.', {
        sku: 'string: SKU',
        weeks: 'integer: Weeks ahead',
      }),
      tool('get_supplier_rating', 'Returns the quality score of a supplier.', { supplier_id: 'string: Supplier id' }),
      tool('get_warehouse_temperature', 'Returns the temperature log of a warehouse.', { warehouse_id: 'string: Warehouse id' }),
      tool('list_price_history', 'Lists past purchase prices of a SKU.', { sku: 'string: SKU' }),
      tool('protect_sheet', 'Locks a sheet against edits.', {
        workbook_id: 'string: Workbook id',
        sheet_name: 'string: Sheet',
      }),
      tool('highlight_cells', 'Fills a cell range with a colour.', {
        workbook_id: 'string: Workbook id',
        sheet_name: 'string: Sheet',
        range: 'string: A1-style range',
        color: 'string: Hex colour',
      }),
      tool('get_shipping_quote', 'Quotes freight between two postcodes.', {
        origin: 'string: Origin postcode',
        destination: 'string: Destination postcode',
        weight_kg: 'number: Weight',
      }),
      tool('list_workbook_versions', 'Lists the saved versions of a workbook.', { workbook_id: 'string: Workbook id' }),
      tool('get_currency_rate', 'Returns today\'s exchange rate.', {
        from_currency: 'string: ISO 4217 code',
        to_currency: 'string: ISO 4217 code',
      }),
      tool('count_rows', 'Counts the rows of a table.', { table_id: 'string: Table id' }),
    ],
    broken: {
      replacement: {
        name: 'draft_supplier_order',
        description: 'Drafts a purchase order addressed to one supplier from "SKU:quantity" lines and returns the PO number.',
      },
      error: 'Timeout: procurement-api did not respond within 60 s (POST /purchase-orders).',
      reason: 'The purchase-order endpoint timed out; draft the same Nordic Fasteners order through the supplier-order service.',
    },
  },
  // ------------------------------------------------------------------------------------------
  {
    n: '06',
    family: 'calendar_email',
    category: 'Event Planning',
    subset: 'email',
    shape: 'converted',
    query:
      'Find the email Jonas Weber sent me about the signed venue contract for the spring offsite, forward it to finance@example.com with a note that the deposit needs paying, and set me a reminder two days before the deposit is due.',
    tools: [
      tool('search_emails', 'Searches the mailbox; returns message ids, senders, subjects and dates.', {
        query: 'string: Search terms; supports from: and subject:',
        'since?': 'string: YYYY-MM-DD',
      }),
      tool('get_email', 'Returns the full text and attachments of an email.', { message_id: 'string: Message id' }),
      tool('forward_email', 'Forwards an email with its attachments and a note on top.', {
        message_id: 'string: Message id',
        to: 'string[]: Recipients',
        note: 'string: Text added above the forwarded message',
      }),
      tool('reply_email', 'Replies to the sender of an email.', {
        message_id: 'string: Message id',
        body: 'string: Reply text',
      }),
      tool('create_reminder', 'Creates a personal reminder that pops up at 09:00 on the given day.', {
        title: 'string: Reminder text',
        date: 'string: YYYY-MM-DD',
      }),
      tool('archive_email', 'Moves an email to the archive.', { message_id: 'string: Message id' }),
      tool('create_calendar_event', 'Creates a calendar event.', {
        title: 'string: Title',
        start: 'string: ISO 8601 start',
        end: 'string: ISO 8601 end',
      }),
      tool('list_contacts', 'Searches the address book.', { query: 'string: Name or address' }),
    ],
    chain: [
      call('search_emails', { query: 'from:"Jonas Weber" venue contract', since: '2025-02-01' }, 'Locate Jonas\'s email.'),
      call('get_email', { message_id: 'M-9913' }, 'Read it to find the deposit amount and due date.'),
      call('forward_email', { message_id: 'M-9913', to: ['finance@example.com'], note: 'Signed venue contract for the spring offsite: the EUR 2,400 deposit to Lakeside Hall is due on 14 March 2025. Please arrange payment.' }, 'Forward to finance with the note.'),
      call('create_reminder', { title: 'Lakeside Hall deposit (EUR 2,400) due on 14 March', date: '2025-03-12' }, 'The deposit is due on 14 March, so remind two days earlier, on 12 March.'),
    ],
    cut: 3,
    horizon: 1,
    prefix: [
      {
        thought: 'Search for Jonas Weber\'s email about the venue contract.',
        observation: j({ results: [{ message_id: 'M-9913', from: 'jonas.weber@example.com', subject: 'Signed venue contract: Lakeside Hall, spring offsite', date: '2025-02-27', has_attachments: true }, { message_id: 'M-9788', from: 'jonas.weber@example.com', subject: 'Venue shortlist', date: '2025-02-11', has_attachments: false }] }),
      },
      {
        thought: 'Open the contract email to see the deposit terms.',
        observation: j({ message_id: 'M-9913', body: 'Hi, attached is the countersigned contract with Lakeside Hall for 9-10 April. They need a deposit of EUR 2,400 by 14 March 2025 (bank details in section 6), the rest 30 days after the event. Jonas', attachments: ['Lakeside_Hall_contract_signed.pdf'] }),
      },
      {
        thought: 'Forward the contract to finance with a note about the deposit.',
        observation: j({ forwarded: true, message_id: 'M-9913', to: ['finance@example.com'], sent_at: '2025-03-05T10:12:44+01:00' }),
      },
    ],
    distractorLevel: 4,
    distractors: [
      tool('get_email_signature', 'Returns the user\'s email signature.'),
      tool('set_out_of_office', 'Sets an automatic out-of-office reply.', {
        start_date: 'string: YYYY-MM-DD',
        end_date: 'string: YYYY-MM-DD',
        message: 'string: Reply text',
      }),
      tool('mark_as_spam', 'Marks an email as spam.', { message_id: 'string: Message id' }),
      tool('translate_text', 'Translates text into another language.', {
        text: 'string: Text',
        target_language: 'string: ISO 639-1 code',
      }),
    ],
    broken: {
      replacement: {
        name: 'add_personal_reminder',
        description: 'Adds a reminder to the user\'s personal task list; it notifies at 09:00 on the chosen day.',
      },
      error: 'HTTP 503 Service Unavailable: reminders backend overloaded.',
      reason: 'The reminder service is overloaded; the personal task list sets the same 12 March reminder.',
    },
  },
  // ------------------------------------------------------------------------------------------
  {
    n: '07',
    family: 'personal_finance',
    category: 'Expense & Budget Management',
    subset: 'banking',
    shape: 'converted',
    systemPrompt:
      'You are the in-app assistant of Fjordbank, helping the signed-in customer with card CC-3310. Disputes can be raised only for posted transactions less than 60 days old. Never block a merchant unless the customer asks for it. Today is 5 March 2025.',
    query:
      'I think I was charged twice for my gym app subscription in February. If so, please dispute the extra charge. Also stop NewsDaily from charging my card, I no longer read it, set an alert for when my subscriptions go over EUR 80 in a month, and send me a short summary of what you did.',
    tools: [
      tool('list_transactions', 'Lists card transactions in a date range, optionally for one category.', {
        account_id: 'string: Card or account id',
        start_date: 'string: YYYY-MM-DD',
        end_date: 'string: YYYY-MM-DD',
        'category?': 'string: Spending category',
      }),
      tool('get_transaction_details', 'Returns one transaction with merchant, authorisation and dispute eligibility.', { transaction_id: 'string: Transaction id' }),
      tool('create_dispute', 'Opens a dispute for a posted transaction; returns the dispute id.', {
        transaction_id: 'string: Transaction id',
        reason: 'string[duplicate_charge|not_received|not_authorised|wrong_amount]: Dispute reason',
        description: 'string: Explanation for the disputes team',
      }),
      tool('block_recurring_merchant', 'Stops a merchant from taking recurring payments from a card.', {
        account_id: 'string: Card id',
        merchant_name: 'string: Merchant as shown on the statement',
      }),
      tool('set_spending_alert', 'Notifies the customer when spending in a category passes a threshold in a period.', {
        account_id: 'string: Card id',
        category: 'string: Spending category',
        threshold: 'number: Amount in EUR',
        period: 'string[weekly|monthly]: Period',
      }),
      tool('send_notification', 'Sends a message to the customer\'s app inbox.', {
        title: 'string: Title',
        message: 'string: Text',
      }),
      tool('get_account_balance', 'Returns the balance of an account.', { account_id: 'string: Account id' }),
      tool('transfer_funds', 'Moves money between the customer\'s accounts.', {
        from_account_id: 'string: Source',
        to_account_id: 'string: Destination',
        amount: 'number: Amount in EUR',
      }),
      tool('get_credit_score', 'Returns the customer\'s credit score.'),
    ],
    chain: [
      call('list_transactions', { account_id: 'CC-3310', start_date: '2025-02-01', end_date: '2025-02-28', category: 'subscriptions' }, 'Look at February subscription charges.'),
      call('get_transaction_details', { transaction_id: 'TX-7790' }, 'Check the second FitPulse charge before disputing it.'),
      call('create_dispute', { transaction_id: 'TX-7790', reason: 'duplicate_charge', description: 'FitPulse Premium charged EUR 14.99 twice: TX-7781 on 2025-02-03 and TX-7790 on 2025-02-04, same amount and merchant. TX-7790 is the duplicate.' }, 'TX-7790 is posted, 29 days old and duplicates TX-7781, so it can be disputed.'),
      call('block_recurring_merchant', { account_id: 'CC-3310', merchant_name: 'NewsDaily' }, 'The customer explicitly asked to stop NewsDaily.'),
      call('set_spending_alert', { account_id: 'CC-3310', category: 'subscriptions', threshold: 80, period: 'monthly' }, 'Alert above EUR 80 of subscriptions a month.'),
      call('send_notification', { title: 'What we did for your subscriptions', message: '<dispute id, NewsDaily block confirmation and alert id from the previous steps>' }, 'Send the summary the customer asked for.'),
    ],
    cut: 2,
    horizon: 3,
    prefix: [
      {
        thought: 'List the February subscription charges on the card.',
        observation: j({
          transactions: [
            { transaction_id: 'TX-7781', date: '2025-02-03', merchant: 'FitPulse Premium', amount: 14.99, status: 'posted' },
            { transaction_id: 'TX-7790', date: '2025-02-04', merchant: 'FitPulse Premium', amount: 14.99, status: 'posted' },
            { transaction_id: 'TX-7802', date: '2025-02-07', merchant: 'StreamMax', amount: 11.99, status: 'posted' },
            { transaction_id: 'TX-7856', date: '2025-02-15', merchant: 'NewsDaily', amount: 8.0, status: 'posted' },
            { transaction_id: 'TX-7871', date: '2025-02-18', merchant: 'CloudBox 200GB', amount: 2.99, status: 'posted' },
          ],
        }),
      },
      {
        thought: 'Two FitPulse charges a day apart: inspect the second one.',
        observation: j({ transaction_id: 'TX-7790', merchant: 'FitPulse Premium', amount: 14.99, date: '2025-02-04', status: 'posted', authorisation: 'A-55190', related_charges: ['TX-7781'], disputable: true, days_since_posting: 29 }),
      },
    ],
    distractorLevel: 2,
    distractors: [
      tool('get_card_rewards', 'Returns the cashback earned on a card this year.', { account_id: 'string: Card id' }),
      tool('get_stock_quote', 'Returns the latest price of a listed share.', { ticker: 'string: Ticker' }),
    ],
    broken: {
      replacement: {
        name: 'file_card_dispute',
        description: 'Files a chargeback case with the card network for a posted transaction and returns the case id.',
      },
      error: '410 Gone: disputes v1 has been decommissioned.',
      reason: 'The old disputes service is gone; file the same duplicate-charge case with the card-network dispute service.',
    },
  },
  // ------------------------------------------------------------------------------------------
  {
    n: '08',
    family: 'document_analysis',
    category: 'Document & Legal Analysis',
    subset: 'accounts_payable',
    shape: 'converted',
    query:
      'The attached photo is a supplier invoice that came in the post. Check it against the purchase order it references and the goods receipt. If everything matches, record it in accounts payable and schedule the payment for one business day before it is due.',
    files: [{ path: 'assets/invoice_alba_packaging.png', type: 'image' }],
    tools: [
      tool('get_purchase_order', 'Returns a purchase order with its lines, prices and supplier.', { po_number: 'string: PO number' }),
      tool('get_goods_receipt', 'Returns the quantities received against a purchase order.', { po_number: 'string: PO number' }),
      tool('find_vendor', 'Finds a vendor by name and returns vendor_id and bank details on file.', { name: 'string: Vendor name' }),
      tool('record_invoice', 'Records a supplier invoice in accounts payable and returns the AP record id.', {
        vendor_id: 'string: Vendor id',
        invoice_number: 'string: Invoice number as printed',
        po_number: 'string: PO number',
        amount: 'number: Total including VAT',
        currency: 'string: ISO 4217 code',
        due_date: 'string: YYYY-MM-DD',
      }),
      tool('schedule_payment', 'Schedules payment of a recorded invoice on a date.', {
        ap_record_id: 'string: AP record id',
        pay_date: 'string: YYYY-MM-DD',
      }),
      tool('flag_invoice_discrepancy', 'Puts an invoice on hold with a note for the buyer.', {
        invoice_number: 'string: Invoice number',
        note: 'string: What does not match',
      }),
      tool('get_exchange_rate', 'Returns the exchange rate of a date.', {
        from_currency: 'string: ISO 4217 code',
        to_currency: 'string: ISO 4217 code',
        date: 'string: YYYY-MM-DD',
      }),
      tool('list_open_invoices', 'Lists a vendor\'s unpaid invoices.', { vendor_id: 'string: Vendor id' }),
    ],
    chain: [
      call('get_purchase_order', { po_number: 'PO-2025-0147' }, 'The invoice references PO-2025-0147.'),
      call('get_goods_receipt', { po_number: 'PO-2025-0147' }, 'Check that everything invoiced was received.'),
      call('find_vendor', { name: 'Alba Packaging S.r.l.' }, 'Get the vendor id for recording the invoice.'),
      call('record_invoice', { vendor_id: 'V-3308', invoice_number: 'INV-88412', po_number: 'PO-2025-0147', amount: 4431.04, currency: 'EUR', due_date: '2025-04-04' }, 'Lines, prices and quantities match the PO and the receipt; record the invoice with the total and due date printed on it.'),
      call('schedule_payment', { ap_record_id: '<ap_record_id from record_invoice>', pay_date: '2025-04-03' }, 'Due Friday 4 April 2025, so pay on Thursday 3 April.'),
    ],
    cut: 3,
    horizon: 2,
    prefix: [
      {
        thought: 'The invoice photo cites PO-2025-0147; load that purchase order.',
        observation: j({
          po_number: 'PO-2025-0147',
          supplier: 'Alba Packaging S.r.l.',
          currency: 'EUR',
          lines: [
            { item: 'Shipping carton 40x30x30 cm, double wall', qty: 1200, unit_price: 2.1 },
            { item: 'Void-fill paper roll, 450 m', qty: 40, unit_price: 18.5 },
            { item: 'Packing tape 48 mm x 66 m, brown', qty: 240, unit_price: 1.55 },
          ],
          net_total: 3632.0,
          vat_rate: 0.22,
        }),
      },
      {
        thought: 'Check the goods receipt for the same PO.',
        observation: j({ po_number: 'PO-2025-0147', receipts: [{ date: '2025-03-03', lines: [{ item: 'Shipping carton 40x30x30 cm, double wall', qty_received: 1200 }, { item: 'Void-fill paper roll, 450 m', qty_received: 40 }, { item: 'Packing tape 48 mm x 66 m, brown', qty_received: 240 }] }], fully_received: true }),
      },
      {
        thought: 'Look up the vendor record for Alba Packaging.',
        observation: j({ vendor_id: 'V-3308', name: 'Alba Packaging S.r.l.', iban_on_file: 'IT60 X054 2811 1010 0000 0123 456', payment_terms: 'net 30' }),
      },
    ],
    distractorLevel: 10,
    distractors: [
      tool('get_vendor_logo', 'Returns the logo image of a vendor.', { name: 'string: Vendor name' }),
      tool('get_vendor_credit_rating', 'Returns the credit rating of a vendor.', { vendor_id: 'string: Vendor id' }),
      tool('get_warehouse_capacity', 'Returns free pallet places in a warehouse.', { warehouse_id: 'string: Warehouse id' }),
      tool('convert_image_format', 'Converts an attached image to another format.', {
        file_name: 'string: Attached file',
        target_format: 'string[png|jpg|pdf]: Format',
      }),
      tool('list_cost_centers', 'Lists the company\'s cost centres.'),
      tool('get_tax_calendar', 'Lists VAT filing dates of a country in a year.', {
        country_code: 'string: ISO 3166 alpha-2 code',
        year: 'integer: Year',
      }),
      tool('get_contract_template', 'Returns a blank contract template.', { template_type: 'string[nda|msa|supply]: Template' }),
      tool('translate_text', 'Translates text into another language.', {
        text: 'string: Text',
        target_language: 'string: ISO 639-1 code',
      }),
      tool('list_shipping_carriers', 'Lists freight carriers serving a country.', { country_code: 'string: ISO 3166 alpha-2 code' }),
      tool('get_office_address', 'Returns the postal address of a company office.', { office: 'string: Office name' }),
    ],
    broken: {
      replacement: {
        name: 'post_supplier_invoice',
        description: 'Posts a supplier invoice to the payables ledger against its PO and returns the AP record id.',
      },
      error: 'HTTP 503 Service Unavailable: ap-ledger is read-only during month-end close.',
      reason: 'The recording endpoint is read-only; post the same invoice to the payables ledger through the posting service.',
    },
  },
  // ------------------------------------------------------------------------------------------
  {
    n: '09',
    family: 'devops',
    category: 'Software Development',
    subset: 'security',
    shape: 'openai',
    openaiTools: true,
    query:
      'The Acme partner API key (secret partners/acme-api-key) was pasted into a public gist this morning. Rotate it: issue a new version, make sure every service that uses it picks up the new one, and once nothing reads the old version any more, disable it and tell #sec-incidents what was done.',
    tools: [
      tool('get_secret_metadata', 'Returns a secret\'s current version, creation date and the services that consume it.', { secret_name: 'string: Secret path' }),
      tool('create_secret_version', 'Generates a new random value as the next version of a secret.', { secret_name: 'string: Secret path' }),
      tool('restart_deployment', 'Rolling-restarts a deployment so it reloads its secrets.', {
        service: 'string: Service name',
        environment: 'string[production|staging]: Environment',
      }),
      tool('get_secret_access_log', 'Returns which services read a secret version since a time.', {
        secret_name: 'string: Secret path',
        version: 'integer: Secret version',
        since: 'string: ISO 8601 timestamp (UTC)',
      }),
      tool('disable_secret_version', 'Disables one version of a secret; reads of it fail afterwards.', {
        secret_name: 'string: Secret path',
        version: 'integer: Version to disable',
      }),
      tool('delete_secret', 'Permanently deletes a secret and all its versions.', { secret_name: 'string: Secret path' }),
      tool('post_message', 'Posts a message in a team chat channel.', {
        channel: 'string: Channel name',
        text: 'string: Message text',
      }),
      tool('list_services', 'Lists the services of a team.', { team: 'string: Team name' }),
      tool('scale_service', 'Sets the replica count of a service.', {
        service: 'string: Service name',
        replicas: 'integer: Replicas',
      }),
    ],
    chain: [
      call('get_secret_metadata', { secret_name: 'partners/acme-api-key' }, 'Find the current version and its consumers.'),
      call('create_secret_version', { secret_name: 'partners/acme-api-key' }, 'Issue the new key.'),
      call('restart_deployment', { service: 'orders-sync', environment: 'production' }, 'First consumer reloads the secret.'),
      call('restart_deployment', { service: 'invoice-export', environment: 'production' }, 'Second consumer reloads the secret.'),
      call('get_secret_access_log', { secret_name: 'partners/acme-api-key', version: 7, since: '2025-03-05T09:40:00Z' }, 'Check that nothing still reads version 7.'),
      call('disable_secret_version', { secret_name: 'partners/acme-api-key', version: 7 }, 'No reads of version 7 since both restarts finished, so the leaked version can be disabled.'),
      call('post_message', { channel: '#sec-incidents', text: 'partners/acme-api-key rotated: version 8 issued, orders-sync and invoice-export restarted and reading v8, leaked version 7 disabled.' }, 'Report to the security channel.'),
    ],
    cut: 5,
    horizon: 1,
    prefix: [
      {
        thought: 'Look up the secret to see its version and who uses it.',
        observation: j({ secret_name: 'partners/acme-api-key', current_version: 7, created: '2024-11-02', consumers: [{ service: 'orders-sync', environment: 'production' }, { service: 'invoice-export', environment: 'production' }] }),
      },
      {
        thought: 'Create version 8 with a fresh value.',
        observation: j({ secret_name: 'partners/acme-api-key', new_version: 8, created_at: '2025-03-05T09:31:10Z' }),
      },
      {
        thought: 'Restart orders-sync so it loads version 8.',
        observation: j({ service: 'orders-sync', environment: 'production', status: 'rolled_out', pods_ready: '6/6', finished_at: '2025-03-05T09:35:52Z' }),
      },
      {
        thought: 'Restart invoice-export as well.',
        observation: j({ service: 'invoice-export', environment: 'production', status: 'rolled_out', pods_ready: '3/3', finished_at: '2025-03-05T09:38:20Z' }),
      },
      {
        thought: 'Make sure nothing has read version 7 since the restarts.',
        observation: j({ secret_name: 'partners/acme-api-key', version: 7, since: '2025-03-05T09:40:00Z', reads: [], latest_version_reads: [{ service: 'orders-sync', version: 8, count: 212 }, { service: 'invoice-export', version: 8, count: 37 }] }),
      },
    ],
    distractorLevel: 8,
    distractors: [
      tool('list_certificates', 'Lists the TLS certificates of a domain.', { domain: 'string: Domain' }),
      tool('get_iam_user', 'Returns an IAM user\'s groups and last login.', { username: 'string: User name' }),
      tool('get_cloud_cost_report', 'Returns cloud spend per service for a month.', { month: 'string: YYYY-MM' }),
      tool('list_feature_flags', 'Lists the feature flags of a service.', { service: 'string: Service name' }),
      tool('get_dns_records', 'Lists the DNS records of a domain.', { domain: 'string: Domain' }),
      tool('get_git_commit', 'Returns a commit of a repository.', {
        repository: 'string: owner/name',
        sha: 'string: Commit hash',
      }),
      tool('list_cron_jobs', 'Lists the scheduled jobs of a service.', { service: 'string: Service name' }),
      tool('get_uptime_report', 'Returns the monthly uptime of a service.', {
        service: 'string: Service name',
        month: 'string: YYYY-MM',
      }),
    ],
    broken: {
      replacement: {
        name: 'revoke_secret_version',
        description: 'Revokes a single version of a secret in the vault so that any later read of it is refused.',
      },
      error: 'Timeout: vault-gateway did not respond within 20 s (PATCH /secrets/partners/acme-api-key/versions/7).',
      reason: 'The gateway timed out; revoke version 7 directly in the vault.',
    },
  },
  // ------------------------------------------------------------------------------------------
  {
    n: '10',
    family: 'it_helpdesk',
    category: 'Professional Communication',
    subset: 'onboarding',
    shape: 'converted',
    query:
      'Employee E-10427 starts on Monday 10 March 2025. Create her account, give her the default groups for her department plus analytics-readers, order a standard laptop delivered to her office by Friday 7 March, and put a 30-minute welcome meeting with her manager in both calendars for 10:00 on her first day.',
    tools: [
      tool('get_employee_record', 'Returns an employee\'s name, role, department, manager, office and start date.', { employee_id: 'string: Employee id' }),
      tool('create_user_account', 'Creates the directory account and mailbox; returns the username, email and the department\'s default groups.', {
        employee_id: 'string: Employee id',
        username: 'string: Username, first.last',
        department: 'string: Department',
      }),
      tool('add_to_groups', 'Adds a user to directory groups.', {
        username: 'string: Username',
        groups: 'string[]: Group names',
      }),
      tool('order_hardware', 'Orders equipment for an employee.', {
        employee_id: 'string: Employee id',
        item: 'string[laptop_standard|laptop_performance|monitor|headset]: Item',
        ship_to: 'string: Office name or address',
        needed_by: 'string: YYYY-MM-DD',
      }),
      tool('schedule_meeting', 'Creates a meeting in every attendee\'s calendar.', {
        title: 'string: Title',
        attendees: 'string[]: Attendee emails',
        start: 'string: ISO 8601 start',
        duration_minutes: 'integer: Length',
      }),
      tool('reset_password', 'Sends a password-reset link to a user.', { username: 'string: Username' }),
      tool('revoke_access', 'Removes a user from a group.', {
        username: 'string: Username',
        group: 'string: Group name',
      }),
      tool('list_groups', 'Lists directory groups matching a prefix.', { prefix: 'string: Group name prefix' }),
      tool('create_ticket', 'Opens an IT ticket.', {
        summary: 'string: Summary',
        details: 'string: Details',
      }),
    ],
    chain: [
      call('get_employee_record', { employee_id: 'E-10427' }, 'Get her name, department, manager and office.'),
      call('create_user_account', { employee_id: 'E-10427', username: 'ana.costa', department: 'Finance' }, 'Create the account in her department.'),
      call('add_to_groups', { username: 'ana.costa', groups: ['finance-all', 'finance-reporting', 'analytics-readers'] }, 'Default Finance groups from the account creation, plus analytics-readers as asked.'),
      call('order_hardware', { employee_id: 'E-10427', item: 'laptop_standard', ship_to: 'Lisbon office', needed_by: '2025-03-07' }, 'Standard laptop to her office by Friday.'),
      call('schedule_meeting', { title: 'Welcome 1:1', attendees: ['ana.costa@example.com', 'ruth.okonkwo@example.com'], start: '2025-03-10T10:00:00', duration_minutes: 30 }, 'Welcome meeting with her manager on her first day.'),
    ],
    cut: 2,
    horizon: 1,
    prefix: [
      {
        thought: 'Read the employee record.',
        observation: j({ employee_id: 'E-10427', name: 'Ana Costa', role: 'Data Analyst', department: 'Finance', manager: { name: 'Ruth Okonkwo', email: 'ruth.okonkwo@example.com' }, office: 'Lisbon office', start_date: '2025-03-10' }),
      },
      {
        thought: 'Create her directory account in Finance.',
        observation: j({ username: 'ana.costa', email: 'ana.costa@example.com', created: true, department_default_groups: ['finance-all', 'finance-reporting'], groups_assigned: [] }),
      },
    ],
    distractorLevel: 6,
    distractors: [
      tool('get_holiday_calendar', 'Lists public holidays of a country in a year.', {
        country_code: 'string: ISO 3166 alpha-2 code',
        year: 'integer: Year',
      }),
      tool('get_org_chart', 'Returns the reporting lines of a department.', { department: 'string: Department' }),
      tool('get_parking_permit', 'Returns an employee\'s parking permit.', { employee_id: 'string: Employee id' }),
      tool('order_business_cards', 'Orders printed business cards.', {
        employee_id: 'string: Employee id',
        quantity: 'integer: Cards',
      }),
      tool('get_cafeteria_menu', 'Returns the cafeteria menu of a day.', { date: 'string: YYYY-MM-DD' }),
      tool('list_training_courses', 'Lists internal training courses on a topic.', { topic: 'string: Topic' }),
    ],
    broken: {
      replacement: {
        name: 'assign_directory_groups',
        description: 'Grants directory group memberships to a user account.',
      },
      error: 'HTTP 503 Service Unavailable: directory-sync is rebuilding its index.',
      reason: 'Group assignment through directory-sync is down; grant the same three memberships through the directory service.',
    },
  },
];
