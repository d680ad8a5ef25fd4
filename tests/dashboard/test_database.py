"""The dashboard's database for one real-server test: a PostgreSQL server of its own
(postgres_server.py) or a SQLite file in the test's folder, with a farm upload token added."""
import os
import sqlite3
import subprocess

from postgres_server import PostgresServer


class TestDatabase:
    def __init__(self, dashboard, backend, work):
        self.postgres = PostgresServer() if backend == "postgres" else None
        self.url = self.postgres.url if self.postgres else os.path.join(work, "dashboard.db")
        self.token = subprocess.run([dashboard, "token", "add", "farm", "--db", self.url], capture_output=True,
                                    text=True, check=True, timeout=60).stdout.strip()

    def sql(self, statement):
        """A query's rows as text, columns joined by '|' and rows by newlines (as psql -At prints them)."""
        if self.postgres:
            return self.postgres.psql(statement)
        with sqlite3.connect(self.url) as c:
            return "\n".join("|".join("" if v is None else str(v) for v in row) for row in c.execute(statement))

    def close(self):
        if self.postgres:
            self.postgres.stop()
