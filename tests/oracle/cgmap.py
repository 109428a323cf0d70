# SPDX-License-Identifier: GPL-2.0-or-later
"""The tasks' memory cgroups rebuilt from `trace-cmd report` text alone,
as an oracle for mmscope's map (src/cgmap.c): the start list (mms1
cgtasks lines; a task an event placed before the list's end line keeps
the event's cgroup), then task_newtask (a child starts in its parent's
cgroup, unknown with CLONE_INTO_CGROUP) and cgroup_attach_task of the
list's hierarchy. Used by tests/report/cgroups.sh and
tests/tui/memcg-lane.sh."""
import re
from urllib.parse import unquote

EV = re.compile(r"^\s*\S.*?-(\d+)\s+\[\d+\]\s+([\d.]+):\s+(\S+):\s*(.*)$")
CLONE_INTO_CGROUP = 0x200000000


def kv(rest):
    return dict(x.split("=", 1) for x in rest.split() if "=" in x)


def events(path):
    """(pid, ts, name, rest) of each event line of trace-cmd report text."""
    return [(int(p), t, n, r) for p, t, n, r in
            (m.groups() for m in map(EV.match, open(path)) if m)]


def replay(path):
    """Each event as (pid, ts, name, rest, cgroup of pid then or None)."""
    lines = events(path)
    hier, listed, evented = None, {}, set()
    for pid, ts, name, rest in lines:
        i = rest.find("mms1 cgtasks ")
        if i >= 0:
            f = kv(rest[i:])
            hier = int(f["hier"])
            if f.get("done") == "1":
                break
            for p in f.get("pids", "").split(","):
                if p:
                    listed[int(p)] = unquote(f["path"])
        elif name in ("task_newtask", "cgroup_attach_task"):
            evented.add(int(kv(rest)["pid"]))
    cg = {p: c for p, c in listed.items() if p not in evented}
    for pid, ts, name, rest in lines:
        i = rest.find("mms1 cgtasks ")
        if i >= 0:
            f = kv(rest[i:])
            for p in f.get("pids", "").split(","):
                if p and int(p) not in evented:
                    cg[int(p)] = unquote(f["path"])
        elif name == "task_newtask":
            f = kv(rest)
            child = int(f["pid"])
            evented.add(child)
            into = int(f.get("clone_flags", "0"), 16) & CLONE_INTO_CGROUP
            c = None if into else cg.get(pid)
            if c is None:
                cg.pop(child, None)
            else:
                cg[child] = c
        elif name == "cgroup_attach_task":
            f = kv(rest)
            if int(f["dst_root"]) == hier:
                evented.add(int(f["pid"]))
                cg[int(f["pid"])] = f["dst_path"]
        yield pid, ts, name, rest, cg.get(pid)
