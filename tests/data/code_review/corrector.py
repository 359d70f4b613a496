"""A stub corrector: it edits the repository it runs in, per STUB_MODE (a file naming a mode
per origin), and answers one outcome per finding it was given."""

import json
import os
import pathlib
import re
import sys

pack = sys.stdin.read()
origin = os.environ["COUNCIL_ORIGIN"]
modes = json.loads(pathlib.Path(os.environ["STUB_MODE"]).read_text())
mode = modes.get(origin, "fix")
ids = list(dict.fromkeys(re.findall(r'"id":"([A-Z]+-[0-9]+)"', pack)))
log = os.environ.get("STUB_LOG")
if log:
    with open(log, "a") as fh:
        fh.write(json.dumps({"corrector": origin, "ids": ids, "mode": mode}) + "\n")

touched = []
app = pathlib.Path("app.py")
if origin == "security" and mode in ("fix", "induce", "undeclared"):
    text = app.read_text()
    text = re.sub(r'"SELECT \* FROM users WHERE name = \'" \+ name \+ "\'"',
                  '"SELECT * FROM users WHERE name = ?", (name,)', text)
    if mode == "induce":
        text = text.replace("def find(db, name):\n",
                            "def find(db, name):\n    print('login', password)\n")
    app.write_text(text)
    touched = ["app.py"]
    if mode == "undeclared":
        pathlib.Path("notes.txt").write_text("scratch\n")
elif origin == "security" and mode == "noop":
    touched = ["app.py"]  # claims a fix, changes nothing
elif origin == "performance" and mode == "fix":
    report = pathlib.Path("report.py")
    report.write_text(report.read_text().replace(
        "    for user in users: db.execute('SELECT 1 WHERE id = ?', (user,))\n",
        "    db.execute('SELECT 1 WHERE id IN (?)', (users,))\n"))
    touched = ["report.py"]
elif origin == "tests" and mode == "fix":
    calc = pathlib.Path("calc.py")
    calc.write_text(calc.read_text().replace("a - b", "a + b"))
    touched = ["calc.py"]
elif origin == "architecture" and mode == "append":
    with app.open("a") as fh:
        fh.write("# storage access goes through the repository layer\n")
    touched = ["app.py"]
out = []
for fid in ids:
    if mode == "escalate":
        out.append({"id": fid, "outcome": "escalated", "files_touched": [],
                    "reason": "needs a design decision"})
    else:
        out.append({"id": fid, "outcome": "fixed", "files_touched": touched, "reason": "stub"})
print(json.dumps(out))
