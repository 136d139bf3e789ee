/** What a fork thread posts once it has loaded the executor and trees and waits for jobs (fork-worker.ts). */
export const FORK_THREAD_READY = 'verbtree-fork-thread-ready';
