export {
  type Answered,
  type ClientEvent,
  type ClientOptions,
  type ClientStats,
  MediahostClient,
  normalizeBaseUrl,
  USER_AGENT,
} from "./client";
export { MediahostError, type MediahostErrorKind, ProviderError } from "./errors";
export { type JobKind, jobFinished, listFolder, searchHits, waitForJob } from "./helpers";
export { type CounterState, countersFromHeaders } from "./rate-limits";
export {
  type AccountRead,
  FolderEntry,
  type JobStatus,
  type Read,
  type ReadOperation,
  readAnswer,
  reads,
  SearchFound,
  StorageRead,
} from "./reads";
export { sharedTokenCache, TokenCache } from "./tokens";
