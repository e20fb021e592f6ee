#!/usr/bin/env python3
"""Compares the outcomes of two hotrow binaries on random configurations with faults.

Usage: python3 scripts/compare-outcomes.py OLD_BINARY NEW_BINARY [COUNT]

A change meant to keep the model's behaviour (a faster engine, a refactor) must give the
same digest for every configuration, not only for the golden ones. Exit 1 if any differs.
"""
import json, os, random, subprocess, sys, tempfile

old, new = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 120
random.seed(7)
bad = 0
path = os.path.join(tempfile.mkdtemp(), "config.json")
for i in range(count):
    replicas = random.choice([1, 2, 2, 3, 4])
    nodes = replicas * random.randint(1, max(1, 12 // replicas))
    c = {"seed": random.randint(0, 10**9), "workload": random.choice(["dbt2", "ndbapi-insert"]), "dataNodes": nodes,
         "replicas": replicas, "ldmThreads": random.randint(1, 3), "tcThreads": random.randint(0, 2),
         "apiNodes": random.randint(1, 4), "apiCores": random.randint(1, 8), "clientsPerApiNode": random.randint(1, 20),
         "thinkTimeUs": random.choice([0, 0, 50, 3000]), "cacheSize": random.choice([1, 1, 3, 100, 1000]),
         "hintedRefill": random.random() < .5, "hintedTransactions": random.random() < .75, "primaryKey": random.random() < .25,
         "durationMs": random.randint(100, 300), "warmupMs": random.choice([0, 50]), "windowMs": random.choice([10, 100]),
         "network": {"latencyUs": random.choice([0, 20, 70, 300, 2000])}}
    faults = []
    if replicas >= 2 and random.random() < .4:
        faults.append({"kind": "dataNodeFailure", "atMs": random.randint(10, 150), "dataNode": random.randrange(nodes), "restartAfterMs": random.randint(20, 100)})
    if random.random() < .3:
        faults.append({"kind": "networkDelay", "atMs": random.randint(10, 150), "dataNode": random.randrange(nodes), "extraUs": random.choice([100, 5000, 50000]), "durationMs": random.randint(5, 80)})
    if random.random() < .3:
        faults.append({"kind": "apiNodeRestart", "atMs": random.randint(10, 150), "apiNode": random.randrange(c["apiNodes"]), "downMs": random.choice([0, 30])})
    c["faults"] = faults
    open(path, "w").write(json.dumps(c))
    out = []
    for b in [old, new]:
        r = subprocess.run([b, "run", "--config", path, "--json"], capture_output=True, text=True)
        out.append(json.loads(r.stdout)["digest"] if r.returncode == 0 else "exit %d %s" % (r.returncode, r.stderr[:100]))
    if out[0] != out[1]:
        bad += 1
        print("DIFF", out, json.dumps(c))
print(f"{count} configurations, {bad} with different outcomes")
sys.exit(1 if bad else 0)
