// Helpers for the engine's tests and for authors of new environments (checkEnv).

export { testCatalog } from './catalog-fixture';
export { callTool } from './call-tool';
export { act, episodeStarter, goalOf, startEpisode, verifyContext } from './episodes';
export {
  checkEnv,
  episodeProblems,
  goalSecrets,
  MAX_REWARD,
  playRecorded,
  type CheckEnvOptions,
  type PlayedEpisode,
} from './check-env';
