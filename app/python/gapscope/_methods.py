"""Keyword arguments as the CLI's options, and one method per analysis.

Every registered analysis of one trace becomes a method of ``Trace``
(``critical-path`` is ``critical_path``) whose keyword arguments are the
command's options, ``--top 5`` being ``top=5``; its docstring is the
command's ``--help``. Nothing here names an analysis: a new one appears
with no code.
"""

import decimal
import functools
import inspect
import numbers
import operator
import re

from . import _gapscope

# The options every command of its kind shares, by what the registration
# says it takes.
_SHARED = {
    "range": "only [start, end): a pair of absolute ns, as in info()",
    "step": "only step N (ProfilerStep#N, TensorFlow step_num, ...)",
    "step_regex": "steps are the CPU slices whose name matches this (ECMAScript)",
    "min_gap_us": "the gap threshold in microseconds (default 100; may be fractional)",
    "peak": "every GPU's roofs over the GPU table's, e.g. 'bf16=989.4,bw=3350'",
}


@functools.lru_cache(maxsize=None)
def registry():
    """The registrations by id, read once per process."""
    return {a["id"]: a for a in _gapscope.analyses()}


def method_name(analysis_id):
    return analysis_id.replace("-", "_")


def shared_options(spec):
    names = []
    if spec["scoped"]:
        names += ["range", "step"]
    if spec["takes_step_regex"]:
        names.append("step_regex")
    if spec["uses_gap_threshold"]:
        names.append("min_gap_us")
    if spec["uses_peaks"]:
        names.append("peak")
    return names


def _number(value, what):
    # Any integer or real, NumPy's included (a cell of a DataFrame).
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError("%s takes a number, not %r" % (what, value))
    if isinstance(value, numbers.Integral):
        return str(operator.index(value))
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    # Exact decimals, never an exponent ("1e-05" is no option value).
    return format(decimal.Decimal(repr(float(value))), "f")


def python_words(message, caller):
    """A message of the CLI's parser in the keyword arguments' words."""
    message = re.sub(r"^gapscope-cli [\w-]+: ", caller + "(): ", message)
    return re.sub(r"--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_"), message)


def tokens(spec, options, caller):
    """The command line that ``options`` (keyword arguments) stand for."""
    own = {o["name"].replace("-", "_"): o for o in spec["options"]}
    shared = shared_options(spec)
    out = []
    for key, value in options.items():
        if key not in own and key not in shared:
            known = sorted(list(own) + shared)
            raise TypeError(
                "%s() got an unexpected keyword argument %r (it takes %s)"
                % (caller, key, ", ".join(known) or "none")
            )
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if key == "range":
            try:
                start, end = value
            except (TypeError, ValueError):
                raise TypeError("range takes (start_ns, end_ns)") from None
            out += [flag, "%s:%s" % (_number(start, "range"), _number(end, "range"))]
        elif key in ("step_regex", "peak"):
            out += [flag, str(value)]
        elif key in shared:
            out += [flag, _number(value, key)]
        elif own[key]["kind"] == "flag":
            if value is not True:
                raise TypeError("%s is a flag: True or False" % key)
            out.append(flag)
        elif own[key]["kind"] == "texts":
            for v in [value] if isinstance(value, str) else list(value):
                out += [flag, str(v)]
        else:
            out += [flag, _number(value, key)]
    return out


def docstring(spec, returns):
    """The command's --help, as the method's docstring."""
    lines = [spec["title"] + ": " + spec["what"].replace("\n", " "), ""]
    lines += [spec["help"], ""]
    params = []
    for o in spec["options"]:
        name = o["name"].replace("-", "_")
        kind = {"flag": "bool", "texts": "str or list of str", "micros": "float (µs)"}.get(
            o["kind"], "int"
        )
        default = "" if o["default"] is None else ", default %s" % o["default"]
        params.append("%s : %s%s\n    %s" % (name, kind, default, o["help"]))
    for name in shared_options(spec):
        params.append("%s\n    %s" % (name, _SHARED[name]))
    params.append("table : str, optional\n    which table to return (default %s; one of %s)"
                  % (spec["primary_table"], ", ".join(spec["tables"])))
    lines += ["Parameters", "----------"] + params + ["", "Returns", "-------", returns]
    if spec["help_notes"]:
        lines += ["", spec["help_notes"]]
    lines += ["", "The same figures as ``gapscope-cli %s TRACE --format json``." % spec["id"]]
    return "\n".join(lines)


def signature(spec):
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    names = [o["name"].replace("-", "_") for o in spec["options"]] + shared_options(spec)
    for name in names + ["table"]:
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None))
    return inspect.Signature(params)


def make_method(spec):
    """A Trace method running the analysis, returning its primary table."""
    name = method_name(spec["id"])

    def method(self, *, table=None, **options):
        return self.result(spec["id"], **options).table(table or spec["primary_table"])

    method.__name__ = name
    method.__qualname__ = "Trace." + name
    method.__doc__ = docstring(
        spec,
        "pandas.DataFrame\n    the table, with attrs['figures'] (the headline figures) "
        "and attrs['units']",
    )
    method.__signature__ = signature(spec)
    return method
