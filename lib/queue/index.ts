import "server-only";
export {
  RUNS_QUEUE,
  queuePrefix,
  runDedupId,
  runEventsChannel,
  runControlChannel,
  runLiveChannel,
  runLiveKey,
} from "./names";
export { runJobSchema, runJobReasons, type RunJobData, type RunJobReason } from "./jobs";
export { parseJobData } from "./job-data";
export { RUNS_WORKER_STALL_SETTINGS, RUN_JOB_OPTIONS } from "./settings";
export {
  API_REDIS_TIMEOUT_MS,
  redisUrl,
  createWorkerConnection,
  createApiConnection,
  apiRedis,
  closeApiRedis,
  withRedisDeadline,
} from "./connection";
export {
  runsQueue,
  closeRunsQueue,
  enqueueRun,
  enqueueRunLater,
  hasLiveRunJob,
  wakeRunJob,
  type EnqueueResult,
} from "./runs-queue";
export {
  SCHEDULES_QUEUE,
  scheduleJobSchema,
  schedulesQueue,
  closeSchedulesQueue,
  upsertScheduleTimer,
  removeScheduleTimer,
  listScheduleTimers,
  type ScheduleJobData,
  type ScheduleTiming,
} from "./schedules-queue";
export {
  NOTIFICATIONS_QUEUE,
  notificationJobSchema,
  notificationsQueue,
  closeNotificationsQueue,
  enqueueDelivery,
  type NotificationJobData,
} from "./notifications-queue";
export {
  EXPERIMENTS_QUEUE,
  EXPERIMENT_RUN_PRIORITY,
  runPriority,
  experimentJobSchema,
  experimentsQueue,
  closeExperimentsQueue,
  enqueueExperiment,
  type ExperimentJobData,
} from "./experiments-queue";
