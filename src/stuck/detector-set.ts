import { StuckDetectionConfigSchema, type StuckDetectionConfig, type StuckDetectionConfigInput } from './config.js';
import { FlapDetector } from './flap-detector.js';
import { HangingDetector } from './hanging-detector.js';
import { NoActuatorDetector } from './no-actuator-detector.js';
import { PathDetector } from './path-detector.js';
import { PositionDetector } from './position-detector.js';
import { ProgressDetector } from './progress-detector.js';
import { StateDetector } from './state-detector.js';

/** Slots the monitor itself keeps ahead of the detectors' slices. */
export const MONITOR_SLOTS = 1;

/**
 * The detectors for one configuration, laid out over one per-agent state block.
 * Detectors hold only configuration, so one set serves any number of agents:
 * share it between monitors with the same config to keep per-agent memory small.
 */
export class StuckDetectorSet {
  readonly config: StuckDetectionConfig;
  readonly position: PositionDetector;
  readonly state: StateDetector;
  readonly progress: ProgressDetector;
  readonly path: PathDetector;
  readonly flap: FlapDetector;
  readonly noActuator: NoActuatorDetector;
  readonly hanging: HangingDetector;
  /** Doubles per agent. */
  readonly slots: number;

  constructor(config: StuckDetectionConfigInput | StuckDetectionConfig = {}) {
    this.config = StuckDetectionConfigSchema.parse(config);
    let offset = MONITOR_SLOTS;
    const next = (slots: number): number => {
      const at = offset;
      offset += slots;
      return at;
    };
    this.position = new PositionDetector(this.config.position, next(PositionDetector.SLOTS));
    this.state = new StateDetector(this.config.state, next(StateDetector.SLOTS));
    this.progress = new ProgressDetector(this.config.progress, next(ProgressDetector.SLOTS));
    this.path = new PathDetector(this.config.path, next(PathDetector.SLOTS));
    this.flap = new FlapDetector(this.config.flap, offset);
    next(this.flap.slots);
    this.noActuator = new NoActuatorDetector(this.config.noActuator, next(NoActuatorDetector.SLOTS));
    this.hanging = new HangingDetector(this.config.hanging, next(HangingDetector.SLOTS));
    this.slots = offset;
  }
}
