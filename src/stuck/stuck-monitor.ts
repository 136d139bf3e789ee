import type { Clock } from '../contracts/clock.js';
import type { PathStatus, Vec3Like } from '../contracts/world.js';
import type { StuckDetectionConfigInput } from './config.js';
import type { Detection } from './detection.js';
import { StuckDetectorSet } from './detector-set.js';

const STEP_ACTIVE = 0;

export interface StepWatch {
  /** The capability moves the agent (navigate, follow): arms the position and flap detectors. */
  movement?: boolean;
  /** The step may wait with no command in flight (following, guarding): the no-actuator detector stays off. */
  idles?: boolean;
  /** Initial progress value; arms the progress detector. Rising values are progress. */
  progress?: number;
  progressTotal?: number;
  /** Deadline for the runner's promise; defaults to `hanging.defaultDeadlineMs`. */
  invocationDeadlineMs?: number;
  /** Names the invocation in a hanging detection, e.g. the stepId. */
  invocation?: string;
}

export interface StuckMonitorOptions {
  clock: Clock;
  /** Share one set between monitors with the same config; otherwise built from `config`. */
  detectors?: StuckDetectorSet;
  config?: StuckDetectionConfigInput;
  /** Receives every detection, including ones tripped in the same tick as another. */
  onDetection?: (detection: Detection) => void;
  /** Backing store to place this agent's state in (see StuckStateArena); defaults to its own. */
  memory?: { state: Float64Array; base: number };
}

/**
 * Every tick-driven detector for one agent. Feed it samples and events; it
 * reports detections. `tick` is O(1) and allocates nothing unless a detector
 * trips. Time comes from the injected clock.
 */
export class StuckMonitor {
  readonly detectors: StuckDetectorSet;
  private readonly clock: Clock;
  private readonly state: Float64Array;
  private readonly base: number;
  private readonly onDetection: ((detection: Detection) => void) | undefined;
  private stateName = '';
  private invocation = 'runner';
  /**
   * The object last passed to `tick`, kept by reference (no copy per tick). A live
   * position (mineflayer's `bot.entity.position`) stays current between ticks.
   */
  private lastPosition: Vec3Like | null = null;

  constructor(options: StuckMonitorOptions) {
    this.clock = options.clock;
    this.detectors = options.detectors ?? new StuckDetectorSet(options.config);
    this.state = options.memory?.state ?? new Float64Array(this.detectors.slots);
    this.base = options.memory?.base ?? 0;
    if (this.base + this.detectors.slots > this.state.length) {
      throw new RangeError(
        `StuckMonitor memory: needs ${this.detectors.slots} slots at base ${this.base}, but the state array holds ${this.state.length}`,
      );
    }
    this.onDetection = options.onDetection;
  }

  get stepActive(): boolean {
    return this.state[this.base + STEP_ACTIVE] === 1;
  }

  /** The agent's state-machine state (or a tree node's name) changed. */
  setState(name: string): void {
    this.stateName = name;
    this.detectors.state.enter(this.state, this.base, this.clock.now(), name);
  }

  beginStep(watch: StepWatch = {}): void {
    const { state, base, detectors } = this;
    const now = this.clock.now();
    state[base + STEP_ACTIVE] = 1;
    this.invocation = watch.invocation ?? 'runner';
    // A new step is progress through the current state: EXECUTING's timeout bounds one step, not a whole task.
    if (this.stateName !== '') detectors.state.enter(state, base, now, this.stateName);
    if (watch.idles) detectors.noActuator.end(state, base);
    else detectors.noActuator.begin(state, base, now);
    detectors.hanging.begin(state, base, now, watch.invocationDeadlineMs);
    detectors.path.reset(state, base);
    this.setMovement(watch.movement === true);
    if (watch.progress !== undefined)
      detectors.progress.begin(state, base, now, watch.progress, watch.progressTotal ?? Number.NaN);
    else detectors.progress.end(state, base);
  }

  endStep(): void {
    const { state, base, detectors } = this;
    state[base + STEP_ACTIVE] = 0;
    detectors.noActuator.end(state, base);
    detectors.hanging.settle(state, base);
    detectors.progress.end(state, base);
    detectors.path.reset(state, base);
    this.setMovement(false);
  }

  /** A movement capability became (in)active within the step, e.g. a dig that first walks to the block. */
  setMovement(active: boolean): void {
    const { state, base, detectors } = this;
    if (active === detectors.position.isActive(state, base)) return;
    if (active) {
      detectors.position.activate(state, base, this.clock.now());
      detectors.flap.activate(state, base);
      if (this.lastPosition !== null) detectors.position.sample(state, base, this.clock.now(), this.lastPosition);
    } else {
      detectors.position.deactivate(state, base);
      detectors.flap.deactivate(state, base);
    }
  }

  /** An actuator command with a duration began (goto, dig, place). */
  actuatorStarted(): void {
    this.detectors.noActuator.commandStarted(this.state, this.base, this.clock.now());
  }

  actuatorSettled(): void {
    this.detectors.noActuator.commandSettled(this.state, this.base, this.clock.now());
  }

  /** An instantaneous actuator command (look, stop, control state). */
  actuatorStamp(): void {
    this.detectors.noActuator.stamp(this.state, this.base, this.clock.now());
  }

  /**
   * The capability's progress counter; `total` is optional. A rising value is activity for the position detector; an
   * unjudged one (`judged` false) is only that, the progress detector does not watch it for stalls.
   */
  progress(value: number, total = Number.NaN, judged = true): void {
    const { state, base, detectors } = this;
    const now = this.clock.now();
    detectors.position.progressed(state, base, now, value);
    if (judged) detectors.progress.report(state, base, now, value, total);
  }

  /** The runner's promise settled (resolved or rejected). */
  invocationSettled(): void {
    this.detectors.hanging.settle(this.state, this.base);
  }

  /** A path event from the world (`why`: what ruled the path out, when it says); returns the detection it tripped. */
  pathStatus(status: PathStatus, why?: string): Detection | null {
    const { state, base, detectors } = this;
    const now = this.clock.now();
    const path = this.emit(detectors.path.report(state, base, now, status, why));
    const flap = this.emit(detectors.flap.pathStatus(state, base, now, status, this.lastPosition));
    return path ?? flap;
  }

  /**
   * One tick with the agent's current position. Returns the most urgent
   * detection tripped by this tick (hanging, no actuator, position, flap,
   * progress, state), or null; all of them also go to `onDetection`.
   */
  tick(position: Vec3Like): Detection | null {
    const { state, base, detectors } = this;
    const now = this.clock.now();
    this.lastPosition = position;
    let first: Detection | null = null;
    let next: Detection | null;
    if (state[base + STEP_ACTIVE] === 1) {
      first = this.emit(detectors.hanging.check(state, base, now, this.invocation));
      next = this.emit(detectors.noActuator.check(state, base, now));
      if (first === null) first = next;
      next = this.emit(detectors.position.sample(state, base, now, position));
      if (first === null) first = next;
      next = this.emit(detectors.flap.sample(state, base, now, position));
      if (first === null) first = next;
      next = this.emit(detectors.progress.check(state, base, now));
      if (first === null) first = next;
    }
    if (this.stateName !== '') {
      next = this.emit(detectors.state.check(state, base, now, this.stateName));
      if (first === null) first = next;
    }
    return first;
  }

  /** Forgets everything: no step, no state, no position. */
  reset(): void {
    this.state.fill(0, this.base, this.base + this.detectors.slots);
    this.stateName = '';
    this.invocation = 'runner';
    this.lastPosition = null;
  }

  private emit(detection: Detection | null): Detection | null {
    if (detection === null) return null;
    const last = this.lastPosition;
    if (detection.position === null && last !== null) detection.position = { x: last.x, y: last.y, z: last.z };
    this.onDetection?.(detection);
    return detection;
  }
}
