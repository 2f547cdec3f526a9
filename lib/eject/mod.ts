/**
 * `beeuni tools eject` (E1-E6): a Beeuni tool becomes the project's own.
 *
 * @module
 */

export {
  addToolEntry,
  addToolsKey,
  ejectComment,
  ejectedPath,
  ejectOutput,
  type EjectPlan,
  type EjectRequest,
  planEject,
  readBuiltinSource,
  setToolValue,
} from "./plan_eject.ts";
