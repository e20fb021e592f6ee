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
