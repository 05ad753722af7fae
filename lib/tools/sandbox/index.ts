/** The tool sandbox: QuickJS (WASM) in a disposable child process. See README.md. */
export {
  runSandboxed,
  childPath,
  type Capability,
  type SandboxOptions,
  type SandboxResult,
  type SandboxErrorKind,
} from "./sandbox";
export { SandboxBusyError, type SlotPolicy } from "./slots";
