// Helpers for the engine's tests and for authors of new environments (checkEnv).
// The catalog fixture and callTool still live in ../test/ (env tests import them there).

export { testCatalog } from './catalog-fixture';
export { callTool } from './call-tool';
export { act, goalOf, startEpisode } from './episodes';
export {
  checkEnv,
  episodeProblems,
  goalSecrets,
  MAX_REWARD,
  playRecorded,
  type CheckEnvOptions,
  type PlayedEpisode,
} from './check-env';
