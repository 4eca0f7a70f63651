"""Makes ToolSandbox (written for polars 0.20) importable under the polars and packages available
here, for the export scripts only: enum categories passed as plain strings, and stand-ins for the
model-client packages that the evaluation and scenario code never call."""
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM = os.environ.get(
    "TOOLSANDBOX_UPSTREAM", os.path.join(HERE, "../../../shared/datasets/toolsandbox-raw/upstream")
)
sys.path[:0] = [os.path.abspath(UPSTREAM), os.path.join(HERE, "shim")]

import datetime as _datetime  # noqa: E402

# The frozen clock: every datetime.now() of the scenarios reads this instant (UTC).
FROZEN_NOW_ISO = os.environ.get("TOOLSANDBOX_CLOCK", "2024-09-02T12:00:00+00:00")
_FROZEN = _datetime.datetime.fromisoformat(FROZEN_NOW_ISO)
os.environ["TZ"] = "UTC"
import time as _time  # noqa: E402

_time.tzset()


class _FrozenDatetime(_datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        value = _FROZEN.astimezone(tz) if tz is not None else _FROZEN.replace(tzinfo=None)
        return cls(*value.timetuple()[:6], value.microsecond, value.tzinfo)


_datetime.datetime = _FrozenDatetime

import polars as pl  # noqa: E402

_enum_init = pl.Enum.__init__


def _enum_init_str(self, categories, *args, **kwargs):
    if isinstance(categories, (list, tuple)):
        categories = [str(c.value) if hasattr(c, "value") else str(c) for c in categories]
    _enum_init(self, categories, *args, **kwargs)


pl.Enum.__init__ = _enum_init_str

class _Stub(types.ModuleType):
    """A module whose every attribute is a placeholder class (never called by the exports)."""

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return type(attr, (), {})


def _stub(name):
    try:
        __import__(name)
    except ImportError:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            sub = ".".join(parts[:i])
            if sub not in sys.modules:
                sys.modules[sub] = _Stub(sub)
                if i > 1:
                    setattr(sys.modules[".".join(parts[: i - 1])], parts[i - 1], sys.modules[sub])


for _name in [
    "ccy",
    "phonenumbers",
    "geopy.geocoders",
    "geopy.distance",
    "langchain_core.messages",
    "langchain_core.utils.function_calling",
    "langchain_core.tools",
    "langchain.tools",
    "langchain_core.pydantic_v1",
]:
    _stub(_name)

# polars 1.x refuses Python floats for a Float32 map_rows result: infer, then cast.
_map_rows = pl.DataFrame.map_rows


def _map_rows_cast(self, function, return_dtype=None, *, inference_size=256):
    out = _map_rows(self, function, None, inference_size=inference_size)
    if return_dtype is not None:
        out = out.with_columns(pl.col(out.columns[0]).cast(return_dtype).alias("map"))
    return out


pl.DataFrame.map_rows = _map_rows_cast

# polars 0.20 behaviours ToolSandbox relies on, restored on polars 1.x:
# - drop() of an absent column is a no-op;
# - fill_null(strategy="zero") fills numeric and boolean columns and leaves the others;
# - multi-column joins match null keys (ToolSandbox's addition / removal / update similarities
#   join snapshots on all columns, and its databases hold nulls, e.g. a message's
#   sender_person_id: its scenarios only score as published if null equals null there).
_drop = pl.DataFrame.drop


def _drop_lenient(self, *columns, strict=False):
    return _drop(self, *columns, strict=strict)


pl.DataFrame.drop = _drop_lenient
_fill_null = pl.DataFrame.fill_null


def _fill_null_zero(self, value=None, strategy=None, **kwargs):
    if strategy == "zero" and value is None:
        exprs = [
            pl.col(n).fill_null(False) if d == pl.Boolean else pl.col(n).fill_null(strategy="zero")
            for n, d in self.schema.items()
            if d.is_numeric() or d == pl.Boolean
        ]
        return self.with_columns(exprs) if exprs else self
    return _fill_null(self, value, strategy, **kwargs)


pl.DataFrame.fill_null = _fill_null_zero
_join = pl.DataFrame.join


def _join_nulls_equal(self, other, *args, **kwargs):
    kwargs.setdefault("nulls_equal", True)
    return _join(self, other, *args, **kwargs)


pl.DataFrame.join = _join_nulls_equal
