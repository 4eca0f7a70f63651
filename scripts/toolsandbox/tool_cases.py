"""The tool calls export_tool_cases.py runs through ToolSandbox (and apb's tests through the port):
each case starts from a scenario's world and makes its calls in order."""

FREDRIK = "9e137f06-916a-5310-8174-cf0b7e9f7054"
HOMER = "e3570ab6-0819-5032-be1e-2b366390c8ef"
TOMAS = "3815cac9-3cab-5d75-89e2-fe12fe19779e"
NAVY = "54f20be9-eac3-5e76-8e57-724e48d3d477"
TICKETS = "8f5b6fc6-1c25-5467-91ba-d4d1e17c7129"
WORLD = "update_contact_with_id_and_phone_number"


def c(tool_name, **arguments):
    return {"name": tool_name, "arguments": arguments}


CASES = [
    {"title": "search contacts", "scenario": WORLD, "calls": [
        c("search_contacts", name="Fredrik"),
        c("search_contacts", name="Tomas Nils Haake"),
        c("search_contacts", relationship="friend"),
        c("search_contacts", relationship="myself"),
        c("search_contacts", relationship="Friends"),
        c("search_contacts", is_self=True),
        c("search_contacts"),
        c("search_contacts", phone_number="+10000000000"),
        c("search_contacts", name="john", relationship="friend"),
        c("search_contacts", person_id="nope"),
        c("search_contacts", name="Homer Simpson"),
        c("search_contacts", name=""),
        c("search_contacts", relationship=None),
        c("search_contacts", name=5),
        c("search_contacts", is_self=False, relationship="friend"),
    ]},
    {"title": "add contacts", "scenario": WORLD, "calls": [
        c("add_contact", name="Stephen Sondheim", phone_number="+19876543210"),
        c("add_contact", name="Me Again", phone_number="+19876543211", is_self=True),
        c("add_contact", name=1, phone_number="+19876543211"),
        c("add_contact", name="Y"),
        c("add_contact", name="Y", phone_number="+19876543210", foo=1),
        c("add_contact", name="Y", phone_number="+19876543212", relationship=None),
        c("add_contact", name="Z", phone_number="+19876543213", relationship="sister", is_self=1),
        c("search_contacts", name="Stephen"),
    ]},
    {"title": "modify contacts", "scenario": WORLD, "calls": [
        c("modify_contact", person_id=FREDRIK, phone_number="+19876543210"),
        c("modify_contact", person_id=FREDRIK),
        c("modify_contact", person_id="fake id", name="Freddy"),
        c("modify_contact", person_id=FREDRIK, is_self=True),
        c("modify_contact", person_id=FREDRIK, is_self="yes"),
        c("modify_contact", person_id=TOMAS, is_self=True, relationship="me"),
        c("modify_contact", person_id=HOMER, name="Homer Simpson", relationship="coworker"),
        c("search_contacts", relationship="coworker"),
    ]},
    {"title": "remove contacts", "scenario": WORLD, "calls": [
        c("remove_contact", person_id="wrong id"),
        c("remove_contact", person_id=HOMER),
        c("remove_contact", person_id=HOMER),
        c("remove_contact", person_id=5),
        c("remove_contact"),
    ]},
    {"title": "messages", "scenario": WORLD, "calls": [
        c("send_message_with_phone_number", phone_number="+12453344098",
          content="How's the new album coming along"),
        c("send_message_with_phone_number", phone_number="+15555550123", content="Hello stranger"),
        c("send_message_with_phone_number", phone_number="+15555550123", content=5),
        c("search_messages", content="album"),
        c("search_messages", sender_phone_number="+10000000000"),
        c("search_messages", recipient_person_id=TOMAS),
        c("search_messages", creation_timestamp_lowerbound=1725200000),
        c("search_messages", creation_timestamp_upperbound=1725200000.5, sender_person_id=TOMAS),
        c("search_messages", creation_timestamp_lowerbound=1.7e12),
        c("search_messages", creation_timestamp_upperbound="x"),
        c("search_messages"),
        c("set_cellular_service_status", on=False),
        c("send_message_with_phone_number", phone_number="+12453344098", content="again"),
    ]},
    {"title": "reminders", "scenario": WORLD, "calls": [
        c("add_reminder", content="Buy milk", reminder_timestamp=1725300000),
        c("add_reminder", content="Pick up laundry", reminder_timestamp=1725310000.5,
          latitude=37.3, longitude=-122),
        c("add_reminder", content="x", reminder_timestamp=100),
        c("add_reminder", content="x", reminder_timestamp=1725300000, latitude=100),
        c("add_reminder", content="x", reminder_timestamp=1725300000, longitude="west"),
        c("search_reminder", content="tickets"),
        c("search_reminder", reminder_timestamp_lowerbound=1725200000),
        c("search_reminder", creation_timestamp_upperbound=1725200000,
          reminder_timestamp_upperbound=1725300000),
        c("search_reminder", latitude=37.3),
        c("search_reminder", latitude=-91),
        c("search_reminder"),
        c("modify_reminder", reminder_id=NAVY, content="Buy a navy dress"),
        c("modify_reminder", reminder_id=NAVY),
        c("modify_reminder", reminder_id="nope", content="x"),
        c("modify_reminder", reminder_id=TICKETS, latitude=None, reminder_timestamp=1725400000),
        c("modify_reminder", reminder_id=TICKETS, latitude="north"),
        c("remove_reminder", reminder_id=NAVY),
        c("remove_reminder", reminder_id="nope"),
        c("search_reminder", content="Buy"),
    ]},
    {"title": "time utilities", "scenario": WORLD, "calls": [
        c("get_current_timestamp"),
        c("timestamp_to_datetime_info", timestamp=1725278400.5),
        c("timestamp_to_datetime_info", timestamp=1711404150),
        c("timestamp_to_datetime_info", timestamp="now"),
        c("timestamp_to_datetime_info", timestamp=1e10),
        c("datetime_info_to_timestamp", year=2024, month=3, day=25, hour=22, minute=2, second=30),
        c("datetime_info_to_timestamp", year=2024, month=13, day=1, hour=0, minute=0, second=0),
        c("datetime_info_to_timestamp", year=2023, month=2, day=29, hour=0, minute=0, second=0),
        c("datetime_info_to_timestamp", year=2024, month=2, day=29, hour=24, minute=0, second=0),
        c("datetime_info_to_timestamp", year=2024, month=2, day=29, hour=1.5, minute=0, second=0),
        c("shift_timestamp", timestamp=1725278400, days=-3, hours=5),
        c("shift_timestamp", timestamp=1725278400.25, weeks=1, minutes=-30, seconds=7),
        c("shift_timestamp", timestamp=1725278400, days=0.5),
        c("timestamp_diff", timestamp_0=1725278400, timestamp_1=1725019200.5),
        c("timestamp_diff", timestamp_0=1725019200.5, timestamp_1=1725278400),
        c("seconds_to_hours_minutes_seconds", seconds=3725),
        c("seconds_to_hours_minutes_seconds", seconds=-1.5),
        c("seconds_to_hours_minutes_seconds", seconds=86399.9999996),
    ]},
    {"title": "unit conversion and holidays", "scenario": WORLD, "calls": [
        c("unit_conversion", amount=1.0, from_unit="meter", to_unit="mile"),
        c("unit_conversion", amount=0, from_unit="degC", to_unit="degF"),
        c("unit_conversion", amount=72, from_unit="Fahrenheit", to_unit="Celsius"),
        c("unit_conversion", amount=3, from_unit="meter", to_unit="meter"),
        c("unit_conversion", amount=1.0, from_unit="BEEG", to_unit="Yoshi"),
        c("unit_conversion", amount=1.0, from_unit="meter", to_unit="kg"),
        c("unit_conversion", amount=60, from_unit="miles per hour", to_unit="km/h"),
        c("unit_conversion", amount="1", from_unit="meter", to_unit="foot"),
        c("search_holiday", holiday_name="Christmas Day", year=2024),
        c("search_holiday", holiday_name="new years", year=2024),
        c("search_holiday", holiday_name="new years eve", year=2024),
        c("search_holiday", holiday_name="Thanksgiving"),
        c("search_holiday", holiday_name="Axlearn Day"),
        c("search_holiday", holiday_name="labor day", year=2025),
        c("search_holiday", holiday_name="Independence Day", year=2027),
        c("search_holiday", holiday_name="MLK day", year=2023),
        c("search_holiday", holiday_name="juneteenth", year=2022),
        c("search_holiday", holiday_name="Christmas", year="2024"),
        c("set_wifi_status", on=False),
        c("search_holiday", holiday_name="Christmas Day", year=2024),
    ]},
]

FUZZY_PAIRS = [
    (a, b)
    for a in ["Fredrik", "Tomas Nils Haake", "myself", "friend", "Friends", "john", "Homer Simpson",
              "album", "tickets", "Buy", "new years", "Thanksgiving", "MLK day", "mom", "boss man",
              "How is the album coming along", "Stephen", "christmas eve", "Dad's birthday", "navy"]
    for b in ["Fredrik Thordendal", "Tomas Haake", "self", "friend", "boss", "John Petrucci",
              "Homer S",
              "How's the new album coming along", "Look for Company SF tickets",
              "Buy tickets for Merrily next week", "Buy a nice rich navy bathing dress",
              "New Year's Day", "Thanksgiving Day", "Martin Luther King Jr. Day", "Christmas Day",
              "New Year's Day (observed)", "Juneteenth National Independence Day", "mother",
              "coworker"]
]

# long queries and choices: rapidfuzz switches algorithms for needles over 64 characters
LONG = [
    "Remind me to call the plumber about the leaking kitchen sink before the weekend starts please",
    "Could you send a message to my boss saying that the quarterly report will be late by two days",
    "Things are proceeding as expected boss, the quarterly report is on track for Friday afternoon",
    "kitchen sink plumber",
    "quarterly report late",
]
FUZZY_PAIRS += [(a, b) for a in LONG for b in LONG if a != b]
