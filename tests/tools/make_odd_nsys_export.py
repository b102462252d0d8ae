#!/usr/bin/env python3
"""An Nsight Systems export with rows and tables the fixtures do not have,
from one of make_nsys_fixtures.py's (tests/core/tst_nsight.cpp):

  - an OS runtime call without a return value (its column made nullable);
  - synchronization records of a type CUPTI does not define (9);
  - CUPTI_ACTIVITY_KIND_MEMSET as a WITHOUT ROWID table, and
    CUPTI_ACTIVITY_KIND_MEMCPY with a generated column named "rowid":
    their rows have no rowid that names them, so a reader cannot point
    back at them.

  make_odd_nsys_export.py SOURCE.sqlite OUT.sqlite
"""
import shutil
import sqlite3
import sys


def rebuild(db, table, edit):
    """The table again, from its CREATE TABLE as `edit` rewrites it."""
    sql = db.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    db.execute(edit(sql.replace(table, "rebuilt", 1)))
    db.execute(f"INSERT INTO rebuilt SELECT * FROM {table}")
    db.execute(f"DROP TABLE {table}")
    db.execute(f"ALTER TABLE rebuilt RENAME TO {table}")


def main():
    source, out = sys.argv[1:3]
    shutil.copy(source, out)
    db = sqlite3.connect(out)
    rebuild(db, "OSRT_API", lambda sql: "\n".join(
        line.replace("NOT NULL", "") if line.strip().startswith("returnValue") else line
        for line in sql.split("\n")))
    db.execute("UPDATE OSRT_API SET returnValue = NULL "
               "WHERE rowid = (SELECT min(rowid) FROM OSRT_API)")
    db.execute("UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET syncType = 9")
    rebuild(db, "CUPTI_ACTIVITY_KIND_MEMSET", lambda sql: sql[:sql.rindex(")")] +
            "\n, PRIMARY KEY (start, streamId)) WITHOUT ROWID")
    db.execute("ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY "
               "ADD COLUMN rowid INTEGER GENERATED ALWAYS AS (5) VIRTUAL")
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
