/**
 * `beeuni tools eject`: a Beeuni tool becomes the project's own.
 *
 * @module
 */

export {
  ejectComment,
  ejectedPath,
  ejectOutput,
  type EjectPlan,
  type EjectRequest,
  planEject,
  readBuiltinSource,
} from "./plan_eject.ts";
