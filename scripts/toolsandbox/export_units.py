"""Exports pint's default unit registry (the one ToolSandbox's `unit_conversion` tool uses) as the
data apb's port converts with, and a set of conversions with pint's answers as a test fixture.

    /tmp/ts-venv/bin/python scripts/toolsandbox/export_units.py \
        data/toolsandbox/units.json test/fixtures/toolsandbox/unit-conversions.json

units.json: every unit name, symbol and alias -> its canonical name, its dimensionality, and the
definition pint reduces to root units (scale and reference units, or a base unit), with the offset
of an offset unit (degC, degF, ...); the prefixes and suffixes in pint's search order.
pint's licence: BSD-3-Clause (data/toolsandbox/ACKNOWLEDGEMENTS).
"""
import json
import sys

import pint

ureg = pint.get_application_registry()
reg = ureg._units if hasattr(ureg, "_units") else ureg.get()._units


def dims(name):
    return {k: v for k, v in ureg.get_dimensionality(name).items()}


def entry(key, definition):
    """A definition as pint's root-unit reduction walks it: scale, reference, base or not."""
    out = {"name": definition.name, "dims": dims(definition.name), "base": definition.is_base}
    if not definition.is_base:
        out["scale"] = definition.converter.scale
        ref = definition.reference or {}
        out["reference"] = [[ureg.get_name(k), v] for k, v in ref.items()]
    if not definition.is_multiplicative:
        out["offset"] = definition.converter.offset
    return out


def export_units(path):
    units = {}
    for key, definition in reg.items():
        try:
            units[key] = entry(key, definition)
        except Exception:  # units pint itself cannot reduce (none in the default registry)
            continue
    registry = ureg.get() if hasattr(ureg, "get") else ureg
    prefixes = {
        k: {"name": p.name, "factor": p.converter.scale} for k, p in registry._prefixes.items()
    }
    data = {
        "pint": pint.__version__,
        "prefixes": prefixes,
        "suffixes": list(registry._suffixes.keys()),
        # sorted: pint's own dict order varies between runs; lookups are by exact key
        "units": dict(sorted(units.items())),
    }
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"), sort_keys=False)


CASES = [
    (1.0, "meter", "mile"), (0.0, "degC", "degF"), (100.0, "celsius", "fahrenheit"),
    (98.6, "fahrenheit", "celsius"), (300.0, "kelvin", "degC"), (5.0, "Kilometers", "Miles"),
    (12.0, "inch", "cm"), (3.5, "feet", "meters"), (2.0, "pound", "kilogram"), (1.0, "kg", "lb"),
    (1.0, "gallon", "liter"), (750.0, "milliliter", "cup"), (1.0, "hour", "second"),
    (90.0, "minute", "hour"), (60.0, "mph", "km/hour"), (100.0, "km/h", "mph"),
    (1.0, "acre", "square_meter"), (1.0, "ounce", "gram"), (1.0, "mile", "km"),
    (10.0, "yard", "foot"), (1.0, "atmosphere", "pascal"), (1.0, "kilowatt_hour", "joule"),
    (32.0, "degF", "kelvin"), (1.0, "light_year", "kilometer"), (1.0, "day", "week"),
    (3, "meter", "meter"), (1.0, "BEEG", "Yoshi"), (1.0, "meter", "kg"), (1.0, "mile", "Yoshi"),
    (1.0, "foot", "second"), (2.5, "Celsius", "Fahrenheit"), (1.0, "nautical_mile", "meter"),
    (1.0, "stone", "pound"), (1.0, "fluid_ounce", "milliliter"), (1.0, "teaspoon", "tablespoon"),
]


def export_cases(path):
    out = []
    for amount, src, dst in CASES:
        try:
            try:
                value = pint.Quantity(amount, src).to(dst).magnitude
            except pint.UndefinedUnitError:
                value = pint.Quantity(amount, src.lower()).to(dst.lower()).magnitude
            out.append({"amount": amount, "from": src, "to": dst, "result": repr(value)})
        except Exception as error:  # the traceback's last line, as the agent would see it
            name = f"{type(error).__module__}.{type(error).__qualname__}"
            out.append({"amount": amount, "from": src, "to": dst, "error": f"{name}: {error}"})
    with open(path, "w") as f:
        json.dump({"pint": pint.__version__, "cases": out}, f, indent=1)


if __name__ == "__main__":
    export_units(sys.argv[1])
    export_cases(sys.argv[2])
