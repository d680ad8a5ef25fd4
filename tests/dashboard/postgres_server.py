"""A throw-away PostgreSQL server for the dashboard's tests: initdb into a temporary directory,
listening on 127.0.0.1 at a free port, trust authentication, stopped and removed at exit. As root
(CI) it runs as the `postgres` system user that Debian's postgresql package creates."""
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile


def _bin(name):
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/" + name))
    if not found:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt install postgresql); scripts/setup.sh --tests installs it")
    return found[-1]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="preflight-pg-")
        self.data = os.path.join(self.root, "data")
        self.port = _free_port()
        self.user = None
        if os.geteuid() == 0:
            self.user = "postgres"
            pw = pwd.getpwnam(self.user)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self._run([_bin("initdb"), "-D", self.data, "-A", "trust", "-U", "preflight", "--no-sync", "-E", "UTF8"])
        self._run([_bin("pg_ctl"), "-D", self.data, "-l", os.path.join(self.root, "log"), "-w", "-t", "60",
                   "-o", "-c listen_addresses=127.0.0.1 -c port=%d -c unix_socket_directories=%s -c fsync=off "
                         "-c max_connections=200" % (self.port, self.root), "start"])
        self._run([_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "preflight", "dashboard"])
        self.url = "postgresql://preflight@127.0.0.1:%d/dashboard" % self.port

    def restart(self):
        """A restart as a failover or an upgrade does it: every client connection is cut."""
        self._run([_bin("pg_ctl"), "-D", self.data, "-m", "fast", "-w", "-t", "60", "restart"])

    def _run(self, command):
        if self.user:
            command = ["runuser", "-u", self.user, "--"] + command
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.root)

    def psql(self, sql):
        out = subprocess.run([_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "preflight", "-d", "dashboard",
                              "-At", "-c", sql], check=True, capture_output=True, text=True)
        return out.stdout.strip()

    def stop(self):
        try:
            self._run([_bin("pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop"])
        except Exception:
            pass
        shutil.rmtree(self.root, ignore_errors=True)
