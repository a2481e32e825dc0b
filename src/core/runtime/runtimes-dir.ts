/** Where the managed Node runtimes live (core/runtime/managed.ts): a path under the data home, no I/O. */
import { homeLayout } from "../platform/data-home";

/** `<data home>/runtimes`. */
export function runtimesDirOf(home: string): string {
  return homeLayout(home).runtimesDir;
}
