import { Vec3 } from 'vec3';

/**
 * What prismarine-physics' PlayerState reads of a mineflayer bot's entity (and its apply() writes back), for a body
 * standing still at `at`: the entity of a bot built by hand, for tests that run physics or the pathfinder without a
 * server.
 */
export function playerEntity(at: Vec3, onGround: boolean) {
  return {
    position: at.clone(),
    velocity: new Vec3(0, 0, 0),
    onGround,
    isInWater: false,
    isInLava: false,
    isInWeb: false,
    isCollidedHorizontally: false,
    isCollidedVertically: false,
    elytraFlying: false,
    yaw: 0,
    pitch: 0,
    effects: {},
    attributes: {},
  };
}
