/* tslint:disable */
/* eslint-disable */

/**
 * A simulated cluster. See the package's `index.d.ts` for the typed API.
 */
export class Simulation {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * `new Simulation(config)`: the CLI's JSON config, or `{ preset, ...overrides }`.
     */
    constructor(config: any);
    /**
     * Advances simulated time by `simulatedMs`, processing at most `maxEvents` events
     * (default 5,000,000). Returns `{ events, nowMs, reached }`; `reached` is false when
     * the event limit stopped it first.
     */
    runFor(simulated_ms: any, max_events: any): any;
    /**
     * Advances to the configured end (warm-up + duration), processing at most `maxEvents`
     * events (default 5,000,000): call until `reached` is true.
     */
    runToEnd(max_events: any): any;
    setCacheSize(size: any): void;
    setClientsPerApiNode(clients: any): void;
    setHintedRefill(hinted: any): void;
    setThinkTimeUs(us: any): void;
    /**
     * Changes one config field live (`cacheSize`, `hintedRefill`, `clientsPerApiNode`,
     * `thinkTimeUs`, `network.latencyUs`, `cpu.*`, ...). Throws, changing nothing, when
     * the value is invalid or the field needs a new Simulation.
     */
    set(key: any, value: any): void;
    /**
     * The latest closed window's figures, with per-node arrays as `Float64Array`s.
     */
    snapshot(): any;
    /**
     * Processes at most `maxEvents` events. Returns `{ events, nowMs }`.
     */
    step(max_events: any): any;
    /**
     * The run summary: the same object `hotrow run --json` prints.
     */
    summary(): any;
    /**
     * Windows closed since window number `since` (from `snapshot().windowsClosed`), as
     * columns: `endMs`, `tpm`, ... as `Float64Array`s of one value per window, and
     * `nodeLoad` etc. as one `Float64Array` of `windows x dataNodes` values, row by row.
     */
    windows(since: any): any;
    /**
     * The effective config.
     */
    readonly config: any;
    readonly finished: boolean;
    readonly nowMs: number;
}

/**
 * Panics on purpose, to test that a panic is reported and poisons the module. Not part
 * of the API.
 */
export function _panicForTests(): void;

/**
 * Runs `config` (as JSON text) to its end and returns its summary's digest; used by the
 * cross-target determinism tests.
 */
export function digestOf(config_json: string): string;

/**
 * The presets: `[{ name, description, config }]`.
 */
export function presets(): any;

/**
 * Installs the panic hook. Runs when the module is instantiated.
 */
export function start(): void;

/**
 * The version of the simulation crate.
 */
export function version(): string;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_simulation_free: (a: number, b: number) => void;
    readonly _panicForTests: () => [number, number];
    readonly digestOf: (a: number, b: number) => [number, number, number, number];
    readonly presets: () => [number, number, number];
    readonly simulation_config: (a: number) => [number, number, number];
    readonly simulation_finished: (a: number) => number;
    readonly simulation_new: (a: any) => [number, number, number];
    readonly simulation_nowMs: (a: number) => number;
    readonly simulation_runFor: (a: number, b: any, c: any) => [number, number, number];
    readonly simulation_runToEnd: (a: number, b: any) => [number, number, number];
    readonly simulation_set: (a: number, b: any, c: any) => [number, number];
    readonly simulation_setCacheSize: (a: number, b: any) => [number, number];
    readonly simulation_setClientsPerApiNode: (a: number, b: any) => [number, number];
    readonly simulation_setHintedRefill: (a: number, b: any) => [number, number];
    readonly simulation_setThinkTimeUs: (a: number, b: any) => [number, number];
    readonly simulation_snapshot: (a: number) => [number, number, number];
    readonly simulation_step: (a: number, b: any) => [number, number, number];
    readonly simulation_summary: (a: number) => [number, number, number];
    readonly simulation_windows: (a: number, b: any) => [number, number, number];
    readonly start: () => void;
    readonly version: () => [number, number];
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
