import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage.migrate import MigrationError, load_migrations, split_sql

TRIGGER = """CREATE TRIGGER t BEFORE DELETE ON a
BEGIN
    SELECT RAISE(ABORT, 'no; never');
    SELECT 1;
END"""


def test_trigger_bodies_strings_and_comments_stay_whole():
    """Semicolons inside trigger bodies, strings and comments do not end a statement."""
    script = f"""
        -- a comment; with a semicolon
        CREATE TABLE a (x TEXT DEFAULT 'a;b');
        /* block; comment */
        {TRIGGER};
        INSERT INTO a VALUES ('--;');
        -- trailing comment
    """
    statements = split_sql(script)
    assert len(statements) == 3
    assert statements[1].startswith("/* block; comment */")
    assert statements[1].endswith("END;")
    assert statements[2] == "INSERT INTO a VALUES ('--;');"


def test_unterminated_statement_is_refused():
    """Text after the last semicolon must be blank or a comment."""
    with pytest.raises(MigrationError, match="incomplete"):
        split_sql("CREATE TABLE a (x);\nCREATE TABLE b (y)")


def test_packaged_migrations_split_into_executable_statements():
    """Every statement of every packaged migration runs on a fresh in-memory database."""
    conn = sqlite3.connect(":memory:")
    for migration in load_migrations():
        for statement in split_sql(migration.sql):
            assert sqlite3.complete_statement(statement)
            conn.execute(statement)
    conn.close()


values = st.text(alphabet=st.sampled_from("ab;'-*/ \n"), max_size=12)


@given(st.lists(values, min_size=1, max_size=6))
def test_split_returns_each_statement_once(texts):
    """Statements holding arbitrary quoted text split back exactly into themselves."""
    statements = ["INSERT INTO t VALUES ('{}');".format(text.replace("'", "''")) for text in texts]
    assert split_sql("\n".join(statements)) == statements
