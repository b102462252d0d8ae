"""Columns from the native module as pandas objects.

An analysis's table arrives as (key, unit, values) columns, each cell as
the CLI's JSON writes it: integers and reals as NumPy arrays, everything
else (text, flags, lists, integers with gaps) as lists. Integer columns
with a missing value become pandas' nullable ``Int64``, flags its
``boolean``; missing reals are NaN. Units stay with the frame in
``DataFrame.attrs["units"]``.
"""



def _pandas():
    """pandas, or an ImportError that says which Debian package has it."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("gapscope's tables are pandas DataFrames: install python3-pandas") from e
    return pandas

# Units whose values are integers (ns, bytes, counts, points in time).
_INTEGER_UNITS = {"ns", "bytes", "count", "time_ns"}


def _column(unit, values):
    pd = _pandas()
    if not isinstance(values, list):
        return values
    present = [v for v in values if v is not None]
    if unit in _INTEGER_UNITS and all(
        isinstance(v, int) and not isinstance(v, bool) for v in present
    ):
        return pd.array(values, dtype="Int64")
    if unit == "flag" and all(isinstance(v, bool) for v in present):
        return pd.array(values, dtype="boolean")  # true, false or missing
    return pd.Series(values, dtype=object)


def table_frame(table):
    """A DataFrame of one native table: its columns in order, units in attrs."""
    pd = _pandas()
    columns = table["columns"]
    data = {key: _column(unit, values) for key, unit, values in columns}
    frame = pd.DataFrame(data, columns=[key for key, _, _ in columns])
    if len(columns) and not len(frame.index):
        frame = frame.reset_index(drop=True)
    frame.attrs["table"] = table["id"]
    frame.attrs["title"] = table["title"]
    frame.attrs["units"] = {key: unit for key, unit, _ in columns}
    return frame


def figures_of(tables):
    """The headline figures (the "figures" table's one row) as a dict."""
    for table in tables:
        if table["id"] == "figures":
            frame = table_frame(table)
            if len(frame.index) == 0:
                return {}
            row = frame.iloc[0]
            return {key: _scalar(row[key]) for key in frame.columns}
    return {}


def _scalar(value):
    if value is _pandas().NA:
        return None
    if hasattr(value, "item"):
        return value.item()
    return value


class Result:
    """Everything one analysis returned.

    ``figures`` holds the headline figures by key (integer ns, bytes,
    shares as fractions), ``tables`` every table as a DataFrame by id (as
    ``gapscope-cli ID --format csv --table NAME`` names them), ``empty``
    the sentence said when there is nothing to show, and ``frame`` the
    analysis's primary table (what its method returns).
    """

    def __init__(self, native, primary):
        self.analysis = native["analysis"]
        self.schema_version = native["schema_version"]
        self.empty = native["empty"]
        self.figures = figures_of(native["tables"])
        self.tables = {t["id"]: table_frame(t) for t in native["tables"]}
        self.primary = primary if primary in self.tables else next(iter(self.tables), None)
        self.status = None
        self.verdict = ""

    @property
    def frame(self):
        """The primary table (the CSV's default table), with the figures in attrs."""
        return self.table(self.primary)

    def table(self, name):
        """The table ``name`` as a DataFrame, the figures and analysis in its attrs."""
        if name not in self.tables:
            raise ValueError(
                "%s has no table %r (it has %s)"
                % (self.analysis, name, ", ".join(self.tables))
            )
        frame = self.tables[name].copy()
        frame.attrs["analysis"] = self.analysis
        frame.attrs["figures"] = dict(self.figures)
        if self.status is not None:
            frame.attrs["status"] = self.status
            frame.attrs["verdict"] = self.verdict
        return frame

    def __getitem__(self, name):
        return self.table(name)

    def __repr__(self):
        shown = ", ".join("%s (%d rows)" % (k, len(v.index)) for k, v in self.tables.items())
        return "<gapscope.Result %s: %s>" % (self.analysis, shown)
