/**
 * The SQLite journal's versioned migrations, applied in order inside one transaction each; the database's
 * `user_version` is the last one applied. Append, never edit.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE intents (
    id TEXT PRIMARY KEY,
    source TEXT,
    goal TEXT,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE plans (
    plan_id TEXT PRIMARY KEY,
    intent_id TEXT,
    body TEXT,
    world TEXT,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE runners (
    id TEXT PRIMARY KEY,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    last_heartbeat INTEGER NOT NULL,
    stopped_at INTEGER
  );
  CREATE INDEX idx_runners_status ON runners(status);
  CREATE TABLE heartbeats (
    runner_id TEXT NOT NULL REFERENCES runners(id),
    at INTEGER NOT NULL
  );
  CREATE INDEX idx_heartbeats_runner ON heartbeats(runner_id, at);
  CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id TEXT NOT NULL REFERENCES plans(plan_id),
    runner_id TEXT REFERENCES runners(id),
    resumed INTEGER NOT NULL DEFAULT 0,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    ok INTEGER,
    code TEXT,
    detail TEXT
  );
  CREATE INDEX idx_runs_plan ON runs(plan_id);
  CREATE TABLE steps (
    plan_id TEXT NOT NULL REFERENCES plans(plan_id),
    step_id TEXT NOT NULL,
    parent_step_id TEXT,
    seq INTEGER NOT NULL,
    verb TEXT NOT NULL,
    capability_version TEXT,
    args TEXT,
    idempotency_key TEXT,
    status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'succeeded', 'failed', 'skipped')),
    failure_count INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    run_id INTEGER REFERENCES runs(id),
    deadline_at INTEGER,
    pre TEXT,
    ttfa_ms REAL,
    duration_ms REAL,
    outcome_code TEXT,
    outcome_detail TEXT,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (plan_id, step_id)
  );
  CREATE INDEX idx_steps_status ON steps(status);
  CREATE TABLE step_transitions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id TEXT NOT NULL,
    step_id TEXT NOT NULL,
    run_id INTEGER,
    from_status TEXT,
    to_status TEXT NOT NULL,
    at INTEGER NOT NULL,
    reason TEXT
  );
  CREATE INDEX idx_transitions_step ON step_transitions(plan_id, step_id);
  CREATE TABLE attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id TEXT NOT NULL,
    step_id TEXT NOT NULL,
    run_id INTEGER,
    number INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    outcome TEXT,
    detail TEXT,
    last_actuator_at INTEGER
  );
  CREATE INDEX idx_attempts_open ON attempts(ended_at) WHERE ended_at IS NULL;
  CREATE INDEX idx_attempts_step ON attempts(plan_id, step_id);
  CREATE TABLE actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    attempt_id INTEGER REFERENCES attempts(id),
    plan_id TEXT NOT NULL,
    step_id TEXT NOT NULL,
    command TEXT NOT NULL,
    args TEXT,
    started_at INTEGER NOT NULL,
    settled_at INTEGER,
    error TEXT
  );
  CREATE INDEX idx_actions_step ON actions(plan_id, step_id);
  CREATE TABLE effects (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id TEXT NOT NULL,
    step_id TEXT NOT NULL,
    run_id INTEGER,
    at INTEGER NOT NULL,
    post TEXT NOT NULL,
    blocks TEXT NOT NULL
  );
  CREATE INDEX idx_effects_plan ON effects(plan_id, id);
  CREATE TABLE incidents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id TEXT,
    step_id TEXT,
    runner_id TEXT,
    attempt_id INTEGER,
    failure_mode TEXT NOT NULL,
    detected_at INTEGER NOT NULL,
    resolved_at INTEGER,
    resolution TEXT,
    details TEXT
  );
  CREATE INDEX idx_incidents_step ON incidents(step_id);
  CREATE INDEX idx_incidents_detected ON incidents(detected_at);
  CREATE INDEX idx_incidents_unresolved ON incidents(resolved_at) WHERE resolved_at IS NULL;
  CREATE TABLE idempotency (
    key TEXT PRIMARY KEY,
    plan_id TEXT,
    step_id TEXT,
    completed_at INTEGER NOT NULL
  );
  CREATE TABLE capability_sla (
    capability TEXT PRIMARY KEY,
    runs INTEGER NOT NULL,
    successes INTEGER NOT NULL,
    ttfa_sum REAL NOT NULL,
    ttfa_count INTEGER NOT NULL,
    duration_sum REAL NOT NULL,
    last_failure_code TEXT,
    last_failure_at INTEGER,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER,
    plan_id TEXT NOT NULL,
    type TEXT NOT NULL,
    at INTEGER NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX idx_events_plan ON events(plan_id, id);
  `,
  `
  CREATE TABLE plan_revisions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id TEXT NOT NULL,
    rung INTEGER NOT NULL,
    planner TEXT NOT NULL,
    failed_step_id TEXT NOT NULL,
    steps TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    adopted_at INTEGER,
    run_id INTEGER
  );
  CREATE INDEX idx_revisions_plan ON plan_revisions(plan_id, id);
  `,
  // A step's effects as absolute facts (step.expects), checkable against a live world on resume; they replace
  // the pre-step snapshot, which a resume judged deltas against even when it belonged to another world.
  // A lease per plan: at most one process runs or resumes a plan at a time.
  `
  ALTER TABLE steps ADD COLUMN expectations TEXT;
  ALTER TABLE steps DROP COLUMN pre;
  CREATE TABLE plan_leases (
    plan_id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    kind TEXT NOT NULL,
    acquired_at INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL
  );
  `,
  // Node state changes of each step's tree, one row per tree step that changed anything, for replay: a changes
  // column holds that step's changes as [nodePath, state] pairs (ready, running, succeeded, failed), with the
  // last executor event journaled before them and where the bot stood.
  `
  CREATE TABLE node_states (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id TEXT NOT NULL,
    step_id TEXT NOT NULL,
    attempt_id INTEGER,
    tree TEXT NOT NULL,
    at INTEGER NOT NULL,
    changes TEXT NOT NULL,
    event_id INTEGER,
    x REAL,
    y REAL,
    z REAL
  );
  CREATE INDEX idx_node_states_plan ON node_states(plan_id, id);
  `,
  // The idempotency ledger: a claim is a durable row (in flight, then completed or released), and a completed key
  // keeps who held it (plan, step, verb, arguments) and the effects its step had. Keys completed before came from
  // succeeded steps: their identity and expectations are read from those steps.
  `
  CREATE TABLE idempotency_ledger (
    key TEXT PRIMARY KEY,
    plan_id TEXT,
    step_id TEXT,
    verb TEXT,
    args TEXT,
    state TEXT NOT NULL CHECK (state IN ('in_flight', 'completed')),
    expectations TEXT,
    runner_id TEXT,
    claimed_at INTEGER,
    completed_at INTEGER
  );
  INSERT INTO idempotency_ledger (key, plan_id, step_id, verb, args, state, expectations, completed_at)
    SELECT i.key, i.plan_id, i.step_id, s.verb, s.args, 'completed', s.expectations, i.completed_at
    FROM idempotency i LEFT JOIN steps s ON s.plan_id = i.plan_id AND s.step_id = i.step_id;
  DROP TABLE idempotency;
  ALTER TABLE idempotency_ledger RENAME TO idempotency;
  CREATE INDEX idx_idempotency_in_flight ON idempotency(runner_id) WHERE state = 'in_flight';
  `,
  // The fleet: bots, a lease per bot (holder, an epoch every claim bumps, an expiry), and a durable plan queue per
  // bot, with at most one running plan per bot.
  `
  CREATE TABLE bots (
    name TEXT PRIMARY KEY,
    added_at INTEGER NOT NULL,
    settings TEXT
  );
  CREATE TABLE bot_leases (
    bot TEXT PRIMARY KEY REFERENCES bots(name),
    holder TEXT,
    epoch INTEGER NOT NULL,
    expires_at INTEGER,
    claimed_at INTEGER,
    renewed_at INTEGER
  );
  CREATE INDEX idx_bot_leases_holder ON bot_leases(holder);
  ALTER TABLE plans ADD COLUMN bot TEXT;
  CREATE UNIQUE INDEX idx_one_running_plan_per_bot ON plans(bot) WHERE status = 'running';
  CREATE TABLE plan_queue (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id TEXT NOT NULL UNIQUE,
    bot TEXT NOT NULL,
    enqueued_at INTEGER NOT NULL
  );
  CREATE INDEX idx_plan_queue_bot ON plan_queue(bot, id);
  `,
  // What each fleet bot's worker last said of it (connected, agent state, where it stands), under the epoch of the
  // lease it held: a gateway lists it only while that lease is the bot's current one.
  `
  CREATE TABLE bot_status (
    bot TEXT PRIMARY KEY,
    epoch INTEGER NOT NULL,
    connected INTEGER NOT NULL,
    state TEXT NOT NULL,
    kind TEXT NOT NULL,
    x REAL,
    y REAL,
    z REAL,
    health REAL,
    food REAL,
    reported_at INTEGER NOT NULL
  );
  `,
  // A fleet run is written under its bot's lease: the epoch it held, so the journal tells a bot's holders apart in time.
  `
  ALTER TABLE runs ADD COLUMN epoch INTEGER;
  `,
  // What an operator asked of a fleet plan through any gateway (pause or cancel), for the bot's holder to apply.
  `
  ALTER TABLE plans ADD COLUMN control TEXT;
  ALTER TABLE plans ADD COLUMN control_reason TEXT;
  `,
  // When a run was cancelled (its plan.cancelled): a cancelled run ends `cancelled`, not failed, in every read.
  `
  ALTER TABLE runs ADD COLUMN cancelled_at INTEGER;
  `,
  // Each run of a verb that has a canary, per version and world kind: the stable version's real runs and the
  // canary's shadow runs on forks (src/executor/shadow.ts), for their SLAs side by side; and the canaries promoted.
  `
  CREATE TABLE version_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    verb TEXT NOT NULL,
    version TEXT NOT NULL,
    world_kind TEXT NOT NULL,
    shadow INTEGER NOT NULL,
    ok INTEGER NOT NULL,
    code TEXT,
    ttfa_ms REAL,
    duration_ms REAL NOT NULL,
    damage REAL NOT NULL,
    at REAL NOT NULL
  );
  CREATE INDEX idx_version_runs_verb ON version_runs(verb, id);
  CREATE TABLE capability_promotions (
    verb TEXT NOT NULL,
    version TEXT NOT NULL,
    promoted_at INTEGER NOT NULL,
    PRIMARY KEY (verb, version)
  );
  `,
  // A step a server's rollback undid: `retracted` (it succeeded, and its effect was found gone from the live world).
  // SQLite changes a CHECK only by rebuilding the table.
  `
  CREATE TABLE steps_retractable (
    plan_id TEXT NOT NULL REFERENCES plans(plan_id),
    step_id TEXT NOT NULL,
    parent_step_id TEXT,
    seq INTEGER NOT NULL,
    verb TEXT NOT NULL,
    capability_version TEXT,
    args TEXT,
    idempotency_key TEXT,
    status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'succeeded', 'failed', 'skipped', 'retracted')),
    failure_count INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    run_id INTEGER REFERENCES runs(id),
    deadline_at INTEGER,
    ttfa_ms REAL,
    duration_ms REAL,
    outcome_code TEXT,
    outcome_detail TEXT,
    updated_at INTEGER NOT NULL,
    expectations TEXT,
    PRIMARY KEY (plan_id, step_id)
  );
  INSERT INTO steps_retractable (plan_id, step_id, parent_step_id, seq, verb, capability_version, args, idempotency_key,
      status, failure_count, attempts, run_id, deadline_at, ttfa_ms, duration_ms, outcome_code, outcome_detail,
      updated_at, expectations)
    SELECT plan_id, step_id, parent_step_id, seq, verb, capability_version, args, idempotency_key, status,
      failure_count, attempts, run_id, deadline_at, ttfa_ms, duration_ms, outcome_code, outcome_detail, updated_at,
      expectations
    FROM steps;
  DROP TABLE steps;
  ALTER TABLE steps_retractable RENAME TO steps;
  CREATE INDEX idx_steps_status ON steps(status);
  `,
];
