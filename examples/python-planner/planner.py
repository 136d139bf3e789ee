#!/usr/bin/env python3
"""A planner outside TypeScript, on verbtree's HTTP API, with Python's standard library only.

It submits a plan, follows its events, reads a failure's code and evidence, and answers the escalation with the
steps to run instead. Against `verbtree serve --escalate-to-client` (a failed step waits for this client):

    VERBTREE_TOKEN=secret verbtree serve --world embedded --scenario examples/python-planner/scenario.json \
        --escalate-to-client
    python3 examples/python-planner/planner.py --url http://127.0.0.1:7070 --token secret

The plan asks for 8 planks from a bot that carries one log (4 planks' worth) and finds no tree: the step fails, the
server holds the failure, and this planner answers with what the log does make. Every route it calls is in the
contract at GET /api/openapi.json. Exit status 0 when the plan ends verified, 1 when it fails, 2 on a refusal.
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


class Refused(Exception):
    """The API refused a request: its status and the error body's message, which names the field and the fix."""

    def __init__(self, status, body):
        super().__init__(f"{status}: {body.get('error', body)}")
        self.status = status
        self.body = body


class Api:
    """verbtree's HTTP API: JSON in, JSON out, the bearer token on every call."""

    def __init__(self, url, token):
        self.url = url.rstrip("/")
        self.token = token

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            raise Refused(error.code, json.load(error)) from None

    def run_path(self, plan_id, view=""):
        return f"/api/runs/{urllib.parse.quote(plan_id, safe='')}{view}"


def say(kind, text):
    print(f"{kind:<10} {text}", flush=True)


def submit(api, plan):
    status, body = api.call("POST", "/api/cognitive/execute", plan)
    say("accepted", f"{body['planId']} on {body['bot']} ({status}, {body['steps']} step(s))")
    return body["planId"]


def events(api, plan_id, poll_s=0.2):
    """The plan's events as the journal records them, oldest first: polls ?after=<the last row id seen>."""
    after = 0
    while True:
        _, page = api.call("GET", api.run_path(plan_id, f"/events?after={after}&limit=500"))
        for row in page["events"]:
            after = row["id"]
            yield row["event"]
        if page["page"]["next"] is None:
            time.sleep(poll_s)


def describe(event):
    step = f" {event['stepId']}" if "stepId" in event else ""
    if event["type"] == "step.ended":
        outcome = event["outcome"]
        return f"{event['type']}{step}: {'ok' if outcome['ok'] else outcome['code']}"
    return f"{event['type']}{step}"


def replacement_for(escalation):
    """What this planner sends instead of a failed craft: the planks one log makes, under a new step id."""
    if escalation["code"] != "precondition_missing":
        return None
    return [
        {
            "stepId": f"{escalation['stepId']}-from-one-log",
            "type": "craft_item",
            "args": {"item": "oak_planks", "count": 4},
        }
    ]


def answer_escalation(api, plan_id):
    _, held = api.call("GET", api.run_path(plan_id, "/escalation"))
    escalation = held["escalation"]
    if escalation is None:
        return
    say("failure", f"{escalation['stepId']} {escalation['code']}: {escalation['detail']}")
    for unmet in escalation["unmet"]:
        say("unmet", unmet)
    say("evidence", ", ".join(describe(event) for event in escalation["evidence"]))
    steps = replacement_for(escalation)
    if steps is None:
        api.call("POST", f"/api/plans/{urllib.parse.quote(plan_id, safe='')}/cancel", {"reason": "no plan for this"})
        say("cancelled", f"nothing to try instead of {escalation['code']}")
        return
    _, answer = api.call("POST", f"/api/plans/{urllib.parse.quote(plan_id, safe='')}/replace", {"steps": steps})
    say("answered", f"{', '.join(s['stepId'] for s in steps)} instead (escalation answered: {answer.get('escalationAnswered', False)})")


def follow(api, plan_id):
    """Prints each event; answers an escalation when the plan asks for one; returns the plan's result."""
    for event in events(api, plan_id):
        say("event", describe(event))
        if event["type"] == "plan.escalated":
            answer_escalation(api, plan_id)
        if event["type"] == "plan.ended":
            return event["result"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:7070")
    parser.add_argument("--token", default=os.environ.get("VERBTREE_TOKEN"))
    parser.add_argument("--plan", default=os.path.join(HERE, "plan.json"))
    options = parser.parse_args()
    if not options.token:
        parser.error("give --token (or set VERBTREE_TOKEN): the API's control routes need the server's token")
    api = Api(options.url, options.token)
    with open(options.plan, encoding="utf-8") as file:
        plan = json.load(file)
    try:
        plan_id = submit(api, plan)
        result = follow(api, plan_id)
        _, view = api.call("GET", api.run_path(plan_id, "/status"))
    except Refused as refused:
        say("refused", str(refused))
        for issue in refused.body.get("issues", []):
            say("issue", f"{issue['where']}: {issue['message']}")
        return 2
    run = view["run"]
    if result["ok"]:
        say("ok", f"{plan_id} {run['status']}: " + ", ".join(f"{s['stepId']} {s['status']}" for s in run["steps"]))
        return 0
    failure = run["failure"]
    say("failed", f"{plan_id} {run['status']}: {failure['code']} at {failure['stepId']}: {failure['detail']}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
