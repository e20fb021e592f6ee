// The playground's markup: figures (each `data-metric`), toolbar, fault buttons, controls,
// compare and sweep panels, charts, and the explanation. Controls carry their field name
// as id; the element binds them (hotrow-playground.js).
import { REPORTED, k } from "./bug-report.js";
import { describeRunLength } from "./run-lengths.js";

export const template = () => `
<div class="fallback" part="fallback" hidden><slot></slot><div class="fallback-fetched"></div></div>
<div class="error" role="alert" part="error"></div>
<div class="figures" aria-live="polite" part="figures">
  <div class="figure" data-card="tpm"><div class="label">TPM (New-Order / min)</div><div class="value" data-metric="tpm">–</div></div>
  <div class="figure" data-card="insertsPerSecond"><div class="label">inserts / s</div><div class="value" data-metric="insertsPerSecond">–</div></div>
  <div class="figure" data-card="transactionsPerSecond"><div class="label">transactions / s</div><div class="value" data-metric="transactionsPerSecond">–</div></div>
  <div class="figure lock binding" data-card="hotRow"><div class="label" title="the row whose lock binds the latest window (or the busiest row lock, while something else binds)">hot row lock busy</div><div class="value" data-metric="bindingRowLockUtilization">–</div></div>
  <div class="figure lock" data-card="hotRowLockUtilization" hidden><div class="label" title="the SYSTAB_0 counter row the ids come from">id counter row lock busy</div><div class="value" data-metric="hotRowLockUtilization">–</div></div>
  <div class="figure" data-card="refillsPerSecond" hidden><div class="label" title="refills of the id counter row">refills / s</div><div class="value" data-metric="refillsPerSecond">–</div></div>
  <div class="figure" data-card="abortsPerSecond" hidden><div class="label" title="transaction attempts aborted and run again per second: aborted lock waits (timeouts; NDB ends a deadlock only so) and failures; ± its 95% interval over the last second's windows">aborts / s</div><div class="value" data-metric="abortsPerSecond">–</div></div>
  <div class="figure full-only" data-card="latencyP99Us"><div class="label">latency p99</div><div class="value" data-metric="latencyP99Us">–</div></div>
  <div class="figure compare-only" hidden><div class="label ratio-label">ratio B / A</div><div class="value" data-metric="compareRatio">–</div><div class="label ratio-noise"></div></div>
</div>
<p class="hint figures-note full-only">Figures: the mean over the last simulated second (p99: the latest window); in compare mode, run A's, with both runs read at the same simulated time.</p>
<div class="row" role="toolbar" aria-label="simulation">
  <button class="play" aria-pressed="false">Pause</button>
  <button class="step full-only" title="advance one metrics window">Step</button>
  <button class="reset">Reset</button>
  <span class="control inline full-only"><label for="speed">speed</label>
    <input id="speed" type="range" min="0" max="5" step="0.05" aria-describedby="speed-out"><output id="speed-out"></output></span>
  <span class="control inline full-only"><label for="seed" title="seed of every random choice: the same seed gives the same run">random seed</label><input id="seed" type="number" min="0" step="1"></span>
  <span class="tabs full-only" role="group" aria-label="mode">
    <button data-mode="live">Live</button><button data-mode="compare">Compare</button><button data-mode="sweep">Sweep</button><button data-mode="strategies" title="every id strategy on this cluster and workload, side by side">Strategies</button><button data-mode="fit" title="fit hotrow to points measured on your cluster, then ask it what-ifs">Fit</button>
  </span>
  <button class="tour-start full-only" title="a guided tour: the bug, its fix and other ways to hand out ids, in nine chapters">Take the tour</button>
  <button class="share full-only" title="copy a link that reopens this exact run">Copy link</button>
  <button class="theme full-only" title="switch light / dark">Theme</button>
  <span class="downloads full-only" role="group" aria-label="download">
    <button class="dl-csv" title="every metrics window kept, one row each: the columns of hotrow run --csv">Windows CSV</button>
    <button class="dl-json" title="the run summary so far: the object hotrow run --json prints">Summary JSON</button>
    <button class="dl-report" title="the run so far as one HTML file with no script, its figures inline: what hotrow report writes">Report</button></span>
  <button class="keys-toggle" aria-expanded="false" aria-controls="keys-help" title="keyboard shortcuts (?)">Keys</button>
</div>
<section class="keys-help" id="keys-help" hidden aria-label="keyboard shortcuts" part="keys">
  <h3>Keyboard shortcuts</h3>
  <p class="hint">While focus is in the playground, outside its text fields and menus.</p>
  <dl></dl>
  <button class="keys-close">Close</button>
</section>
<div class="row faults full-only ndb-only" data-engine="ndb" role="group" aria-label="faults">
  <span class="legend-note">Faults:</span>
  <label for="faultNode">data node</label><select id="faultNode"></select>
  <button class="fail-node" title="the node stops; its partner takes over; it restarts after 3 s">Fail node</button>
  <button class="slow-node" title="messages to and from the node take 2 ms longer for 2 s">Slow network</button>
  <button class="restart-api" title="API node 0 restarts: its cached ids are lost, its clients are away for 1 s">Restart API node 0</button>
  <span class="legend-note">aborted: <span data-metric="aborts">0</span> · ids lost: <span data-metric="idsLost">0</span> · down: <span data-metric="nodesDown">none</span></span>
</div>
<div class="notice" aria-live="polite"></div>
<div class="compare-panel controls" hidden>
  <div class="control"><label for="compareField">compare runs that differ in</label><select id="compareField"></select></div>
  <div class="control"><label for="compareA">run A</label><input id="compareA" type="text" inputmode="decimal"><select id="compareA-choice" aria-label="run A" hidden></select></div>
  <div class="control"><label for="compareB">run B</label><input id="compareB" type="text" inputmode="decimal"><select id="compareB-choice" aria-label="run B" hidden></select></div>
  <div class="control"><span class="hint">Same seed and settings; only this field differs. The ratio is run B's headline throughput (the first figure) over run A's, each averaged over the last simulated second.</span></div>
</div>
<div class="strategies-panel" hidden>
  <div class="row"><button class="strategies-run primary" disabled>Run every strategy</button><button class="strategies-cancel" disabled>Cancel</button>
    <span class="hint">each run: this cluster and workload, ${describeRunLength("strategies")}, API node 0 restarting once in the warm-up</span></div>
  <progress class="strategies-progress" max="1" value="0" aria-label="strategies progress"></progress>
  <div class="table-scroll" tabindex="0" role="region" aria-label="every id strategy (scrolls sideways on a narrow screen)"><table class="strategies-table">
    <caption>Every id strategy on this cluster (★: no other is better on inserts/s, ids lost and order at once)</caption>
    <thead><tr><th scope="col">strategy</th><th scope="col">inserts / s</th><th scope="col">p99 (us)</th><th scope="col">id fetches / s</th>
      <th scope="col">ids lost (1 restart)</th><th scope="col">insert skew</th><th scope="col">in order</th>
      <th scope="col" title="what holds each strategy's inserts (its bottleneck, and how busy)">held by</th></tr></thead>
    <tbody></tbody>
  </table></div>
  <p class="legend-note strategies-note" aria-live="polite"></p>
  <div class="panels strategies-charts">
    <div class="panel"><h3>inserts / s against ids lost to a restart</h3><svg class="scatter scatter-lost" role="img" aria-label="inserts per second against ids lost, one point per strategy"></svg></div>
    <div class="panel"><h3>inserts / s against the share of ids in order</h3><svg class="scatter scatter-order" role="img" aria-label="inserts per second against the share of ids in order, one point per strategy"></svg></div>
  </div>
  <div class="panel"><h3>inserts / s per strategy</h3><div class="bars bars-strategies"></div></div>
</div>
<div class="fit-panel" hidden>
  <p class="hint">Points measured on your cluster: a header of config fields (what varied between the measurements) and one
    summary metric (what was measured), then one row per measurement; <code>#</code> starts a comment. hotrow searches the fields
    to fit until its numbers meet yours, on the settings above (preset, workload, every knob), each run ${describeRunLength("fit")}: <code>hotrow fit</code>'s search, on this page's workers.</p>
  <div class="controls">
    <div class="control fit-points-control"><label for="fitPoints">measured points (CSV)</label>
      <textarea id="fitPoints" rows="7" spellcheck="false" autocomplete="off"></textarea>
      <span class="hint">metrics: <code>tpm</code>, <code>transactionsPerSecond</code>, <code>insertsPerSecond</code>, <code>latencyUs.p50</code>, <code>latencyUs.p99</code>, …</span></div>
    <div class="control"><label for="fitFields">fields to fit</label><input id="fitFields" type="text" spellcheck="false" autocomplete="off">
      <span class="hint">numeric config fields, comma-separated: <code>cpu.scale</code> (all CPU costs), <code>network.latencyUs</code>, … at most as many as there are points</span></div>
  </div>
  <div class="row"><button class="fit-run primary" disabled>Fit</button><button class="fit-cancel" disabled>Cancel</button>
    <button class="fit-apply" disabled title="put the fitted values into the running config">Use the fitted values</button>
    <label for="fitPredict" class="fit-predict-label">predict at <span class="fit-predict-field">the varied field</span> =</label>
    <input id="fitPredict" type="number" min="0" step="any" disabled>
    <button class="fit-predict" disabled title="run the fitted model at this value (hotrow fit --predict)">Predict</button></div>
  <output class="fit-prediction" aria-live="polite"></output>
  <progress class="fit-progress" max="1" value="0" aria-label="fit progress"></progress>
  <output class="fit-status legend-note" aria-live="polite"></output>
  <div class="panels">
    <div class="panel"><h3><span class="fit-axis">measured against hotrow</span></h3><div class="chart fit-chart"></div>
      <p class="legend-note fit-chart-note">Fit the points to draw them beside hotrow's curve.</p></div>
    <div class="panel"><h3>fitted values (95% interval)</h3>
      <table class="fit-values" aria-label="the fitted values">
        <thead><tr><th scope="col">field</th><th scope="col">started at</th><th scope="col">fitted</th><th scope="col">95% interval</th></tr></thead>
        <tbody></tbody></table>
      <p class="legend-note fit-notes"></p>
      <h3>each point: <span class="fit-metric">measured</span></h3>
      <table class="fit-points" aria-label="each measured point against hotrow fitted">
        <thead><tr><th scope="col">point</th><th scope="col">measured</th><th scope="col">hotrow</th><th scope="col">residual</th>
          <th scope="col" title="what holds hotrow's throughput at this point, fitted">held by</th></tr></thead>
        <tbody></tbody></table></div>
  </div>
</div>
<div class="sweep-panel" hidden>
  <div class="row"><label for="sweepField">sweep</label>
    <select id="sweepField"></select>
    <button class="sweep-run primary" disabled>Run sweep</button><button class="sweep-cancel" disabled>Cancel</button></div>
  <progress class="sweep-progress" max="1" value="0" aria-label="sweep progress"></progress>
  <div class="panel"><h3>throughput vs <span class="sweep-axis">cache size</span> (each point: ${describeRunLength("sweep")}; dashed: the bound its bottleneck sets)</h3><div class="chart sweep-chart"></div>
    <table class="sweep-table" aria-label="every run of the sweep">
      <thead><tr><th scope="col">run</th><th scope="col" class="sweep-metric" title="the chart's figure; ± its 95% interval, by batch means over the run's windows">transactions/s</th><th scope="col" class="sweep-second">inserts/s</th><th scope="col">p99</th><th scope="col" title="the row that binds each run, or its busiest row lock (not binding)">hot row</th>
        <th scope="col" title="the run's bottleneck; ▲ where it changed from the run before">held by</th></tr></thead>
      <tbody></tbody></table>
    <p class="legend-note">▲: the bottleneck changed kind from the run before (where the curve bends).</p></div>
</div>
<div class="panels live-panels live-first" part="charts">
  <div class="panel"><h3>throughput <button class="dl-png" data-chart="throughputChart" title="download this chart as a PNG image">PNG</button></h3><div class="chart chart-throughput"></div>
    <div class="legend-note reported-note" hidden>Dashed grey lines: the bug report's measurements at 8 data nodes, ${k(REPORTED.cacheOneTpm)} TPM at cache 1 (the lower) and ${k(REPORTED.cacheThousandTpm)} TPM at cache 1000.</div></div>
  <div class="panel full-only"><h3><span class="hot-chart-title">id counter row: lock busy and refills / s</span> <button class="dl-png" data-chart="hotChart" title="download this chart as a PNG image">PNG</button></h3><div class="chart chart-hot"></div></div>
</div>
<div class="row timeline-row live-panels" role="group" aria-label="timeline">
  <label for="timeline">simulated time</label>
  <input id="timeline" type="range" min="0" max="0" step="1" value="0" aria-describedby="timeline-out">
  <output id="timeline-out">0.0 s</output>
  <span class="fork-form full-only"><label for="forkField">fork here with</label><select id="forkField"></select>
    <label for="forkValue">=</label><input id="forkValue" type="text" inputmode="decimal" size="8">
    <button class="fork" title="run B branches from this moment with the changed knob; run A goes on unchanged">Fork</button></span>
  <span class="legend-note fork-note" hidden></span>
</div>
<div class="controls" part="controls">
  <div class="control full-only"><label for="preset">preset</label><select id="preset" aria-describedby="preset-about"></select>
    <span class="hint" id="preset-about"></span></div>
  <div class="control full-only"><label for="engine">engine</label><select id="engine"></select>
    <span class="hint">picks the engine's preset (restarts the run)</span></div>
  <div class="control full-only wide"><label for="workload">workload</label><select id="workload"></select>
    <span class="hint restart-tag">restarts the run</span>
    <details class="spec-editor"><summary>edit the workload spec, or bring your SQL</summary>
      <span class="spec-tabs" role="tablist" aria-label="the workload as"><button role="tab" class="spec-tab" data-tab="json" aria-selected="true" aria-controls="specJson">JSON spec</button><button role="tab" class="spec-tab" data-tab="sql" aria-selected="false" aria-controls="specSql">SQL</button></span>
      <div id="specJson" role="tabpanel"><label for="specText" class="hint">tables, transactions and their statements as JSON (the spec language: docs/workloads.md)</label>
      <textarea id="specText" rows="12" spellcheck="false" autocomplete="off"></textarea></div>
      <div id="specSql" role="tabpanel" hidden><label for="sqlText" class="hint">a schema (CREATE TABLE) and its transactions (BEGIN ... COMMIT), MySQL or PostgreSQL, pgbench scripts too; upserts, MERGE, WITH and sequences are read; <code>-- hotrow: rows=N</code>, <code>name=</code>, <code>weight=</code>, <code>key=</code> lines say what SQL cannot (docs/workloads.md)</label>
      <span class="inline sql-options"><label for="sqlExample">example</label><select id="sqlExample"><option value="">your own SQL</option></select>
        <span class="sql-name"><label for="sqlName">name</label><input id="sqlName" type="text" size="16" maxlength="64" placeholder="workload" spellcheck="false" autocomplete="off"></span></span>
      <textarea id="sqlText" rows="14" spellcheck="false" autocomplete="off" placeholder="CREATE TABLE orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, ...);&#10;BEGIN;&#10;INSERT INTO orders (customer_id) VALUES (?);&#10;COMMIT;"></textarea></div>
      <span class="inline"><button class="spec-apply" title="check the spec (or import the SQL), then restart the run with it">Apply</button>
        <button class="spec-reset" title="back to the selected workload's spec">Reset</button></span>
      <output class="spec-status" aria-live="polite"></output>
      <div class="sql-assumptions" hidden><span class="hint">what the import assumed (file:line:column)</span><ol></ol></div></details></div>
  <div class="control"><label for="cacheSize">id cache size <span class="live-tag">live</span></label>
    <span class="inline"><input id="cacheSize" type="range" min="0" max="6" step="0.01"><output for="cacheSize"></output></span>
    <span class="hint">ids per fetch of a cached range, by a refill or a service request (log scale, 1 to 1,000,000)</span></div>
  <div class="control ndb-only" data-engine="ndb"><label><input id="hintedRefill" type="checkbox"> refill uses a transaction hint <span class="live-tag">live</span></label>
    <span class="hint">TC on the node holding the counter row, instead of round robin</span></div>
  <div class="control full-only"><label><input id="primaryKey" type="checkbox"> inserted table has a primary key</label>
    <span class="hint">no hidden key, no allocator (restarts)</span></div>
  <div class="control full-only server-only"><label for="server.cores">server cores</label>
    <input id="server.cores" type="number" min="1" max="1024" step="1"><span class="hint" data-about="server.cores"></span></div>
  <div class="control full-only server-only"><label for="server.flushUs">log flush (us) <span class="live-tag">live</span></label>
    <input id="server.flushUs" type="number" min="0" step="10"><span class="hint" data-about="server.flushUs"></span></div>
  <div class="control full-only server-only" data-engine="postgres"><label for="server.recheckNs">woken waiter CPU (ns) <span class="live-tag">live</span></label>
    <input id="server.recheckNs" type="number" min="0" step="1000"><span class="hint" data-about="server.recheckNs"></span></div>
  <div class="control full-only one-server-only"><label for="server.wakeUs">waiter wake-up (us) <span class="live-tag">live</span></label>
    <input id="server.wakeUs" type="number" min="0" step="10"><span class="hint" data-about="server.wakeUs"></span></div>
  <div class="control full-only server-only" data-engine="innodb"><label for="server.grantNs">hand-over CPU per waiter (ns) <span class="live-tag">live</span></label>
    <input id="server.grantNs" type="number" min="0" step="100"><span class="hint" data-about="server.grantNs"></span></div>
  <div class="control full-only server-only" data-engine="innodb"><label for="server.deadlockNs">deadlock search CPU per step (ns) <span class="live-tag">live</span></label>
    <input id="server.deadlockNs" type="number" min="0" step="100"><span class="hint" data-about="server.deadlockNs"></span></div>
  <div class="control full-only server-only" data-engine="innodb"><label for="server.deadlockSearch">deadlock search <span class="live-tag">live</span></label><select id="server.deadlockSearch"></select>
    <span class="hint" data-about="server.deadlockSearch"></span></div>
  <div class="control full-only server-only" data-engine="innodb"><label for="server.autoincLockMode">AUTO-INC lock mode</label><select id="server.autoincLockMode">
    <option value="0">0: a table lock to the statement's end</option><option value="1">1: consecutive (a light mutex)</option><option value="2">2: interleaved (a light mutex)</option></select>
    <span class="hint" data-about="server.autoincLockMode"></span></div>
  <div class="control full-only server-only" data-engine="raft"><label for="server.pushDelayUs">push delay (us) <span class="live-tag">live</span></label>
    <input id="server.pushDelayUs" type="number" min="0" step="1000"><span class="hint" data-about="server.pushDelayUs"></span></div>
  <div class="control full-only server-only" data-engine="raft"><label for="server.pushNs">push CPU (ns) <span class="live-tag">live</span></label>
    <input id="server.pushNs" type="number" min="0" step="1000"><span class="hint" data-about="server.pushNs"></span></div>
  <div class="control full-only server-only" data-engine="innodb"><label for="server.lockGrant">lock grant order <span class="live-tag">live</span></label><select id="server.lockGrant"></select>
    <span class="hint" data-about="server.lockGrant"></span></div>
  <div class="control full-only ndb-only"><label for="dataNodes">data nodes</label><select id="dataNodes"></select>
    <span class="hint">node groups = data nodes / replicas (restarts)</span></div>
  <div class="control full-only ndb-only"><label for="replicas">replicas</label><select id="replicas">
    <option>1</option><option>2</option><option>3</option><option>4</option></select><span class="hint">restarts the run</span></div>
  <div class="control full-only"><label for="apiNodes">API nodes</label><input id="apiNodes" type="number" min="1" max="256" step="1">
    <span class="hint">mysqld / NDB API processes (restarts)</span></div>
  <div class="control full-only"><label for="clientsPerApiNode">clients per API node <span class="live-tag">live</span></label>
    <span class="inline"><input id="clientsPerApiNode" type="range" min="1" max="256" step="1"><output for="clientsPerApiNode"></output></span></div>
  <div class="control full-only"><label for="thinkTimeUs">think time <span class="live-tag">live</span></label>
    <span class="inline"><input id="thinkTimeUs" type="range" min="0" max="6" step="0.05"><output for="thinkTimeUs"></output></span>
    <span class="hint">pause between a client's transactions</span></div>
  <div class="control full-only"><label for="arrivalRatePerApiNode">offered load per API node <span class="live-tag">live</span></label>
    <span class="inline"><input id="arrivalRatePerApiNode" type="range" min="0" max="6" step="0.05"><output for="arrivalRatePerApiNode"></output></span>
    <span class="hint">open arrivals (requests/s): each takes a free client or waits; 0 = closed loops</span></div>
  <div class="control full-only"><label for="arrivalCv">arrival spread <span class="live-tag">live</span></label>
    <span class="inline"><input id="arrivalCv" type="range" min="0" max="2" step="0.1"><output for="arrivalCv"></output></span>
    <span class="hint" data-about="arrivalCv"></span></div>
  <div class="control full-only strategy wide"><label for="allocator">where ids come from</label><select id="allocator"></select>
    <span class="hint" data-about="allocator"></span></div>
  <div class="control full-only strategy wide"><label for="idCacheScope">who caches a range of ids</label><select id="idCacheScope"></select>
    <span class="hint" data-about="idCacheScope"></span></div>
  <div class="control full-only strategy"><label for="cacheGrowth">cache growth per range (x) <span class="live-tag">live</span></label>
    <input id="cacheGrowth" type="number" min="1" max="1000" step="1"><span class="hint" data-about="cacheGrowth"></span></div>
  <div class="control full-only strategy ndb-only"><label for="partitioning">how rows are placed</label><select id="partitioning"></select>
    <span class="hint" data-about="partitioning"></span></div>
  <div class="control full-only strategy ndb-only"><label for="keyLayout">how an id becomes a key</label><select id="keyLayout"></select>
    <span class="hint" data-about="keyLayout"></span></div>
  <div class="control full-only strategy ndb-only"><label for="shardBits">shard bits</label>
    <input id="shardBits" type="number" min="1" max="15" step="1"><span class="hint" data-about="shardBits"></span></div>
  <div class="control full-only"><label for="latency">network latency <span class="live-tag">live</span></label>
    <span class="inline"><input id="latency" type="range" min="0" max="500" step="5"><output for="latency"></output></span>
    <span class="hint" data-about="network.latencyUs"></span></div>
  <div class="control full-only"><label for="latencyCv">network delay spread <span class="live-tag">live</span></label>
    <span class="inline"><input id="latencyCv" type="range" min="0" max="1" step="0.05"><output for="latencyCv"></output></span>
    <span class="hint" data-about="network.latencyCv"></span></div>
  <div class="control full-only"><label for="cpuScale">CPU cost scale <span class="live-tag">live</span></label>
    <span class="inline"><input id="cpuScale" type="number" min="0.01" max="100" step="0.05"><span class="unit">x</span></span>
    <span class="hint" data-about="cpu.scale"></span></div>
  <div class="control full-only"><label for="serviceCv">service time spread <span class="live-tag">live</span></label>
    <span class="inline"><input id="serviceCv" type="range" min="0" max="2" step="0.1"><output for="serviceCv"></output></span>
    <span class="hint" data-about="cpu.serviceCv"></span></div>
</div>
<div class="panels live-panels" part="charts">
  <div class="panel why-panel full-only" part="why"><h3>Why this number <span class="legend-note">(over the run after warm-up; the dashed line on the
    throughput chart is the bound per window)</span></h3><div class="why-body"><p class="legend-note">…</p></div></div>
  <div class="panel cluster-panel full-only" data-view="cluster" data-messages-in-flight="0">
    <h3>the cluster now<span class="legend-note run-a-only" hidden></span> <span class="legend-note ndb-only">(one simulated moment; API nodes above, data nodes by node group below)</span><span class="legend-note one-server-only">(one simulated moment; the clients' API node above, the server below)</span></h3>
    <canvas class="cluster" role="img" aria-label="the cluster"></canvas>
    <div class="legend-note one-server-only">Dots are statements and replies crossing the socket between the clients and the server. The
      server's fill is its CPU load (its backends share its cores); the outlined node holds the row that binds.</div>
    <div class="legend-note ndb-only">Dots are signals crossing the network (at speeds up to 1/100 of real time; faster, lines whose width is
      the traffic): <span class="key-api">API ↔ TC</span>, <span class="key-lqh">TC ↔ data (prepare, commit, complete)</span>,
      <span class="key-alloc">id refills</span>. A node's fill is its load, the bar under it the transactions it coordinates;
      the outlined node holds the row that binds (the SYSTAB_0 counter row, or a row of the workload when one of its own is the bottleneck), and the squares are refills waiting for the counter row's lock.</div></div>
  <div class="panel full-only"><h3><span class="heatmap-title">load per data node</span> <span class="legend-note heatmap-legend">(● holds the hot row)</span></h3>
    <h3 class="compare-only run-name" hidden>A</h3>
    <canvas class="heatmap" role="img" aria-label="load per data node over time"></canvas><div class="bars bars-load"></div>
    <h3 class="compare-only run-name" hidden>B</h3>
    <canvas class="heatmap compare-only" role="img" aria-label="run B: load per data node over time" hidden></canvas><div class="bars bars-load compare-only" hidden></div></div>
  <div class="panel full-only"><h3>latency (p50, p99) <button class="dl-png" data-chart="latencyChart" title="download this chart as a PNG image">PNG</button></h3><div class="chart chart-latency"></div></div>
  <div class="panel full-only ndb-only"><h3>transactions coordinated per data node / s</h3><div class="bars bars-tc"></div>
    <h3 class="compare-only run-name" hidden>B</h3><div class="bars bars-tc compare-only" hidden></div>
    <div class="legend-note tc-note"></div></div>
  <div class="panel hottest-panel full-only" part="hottest-rows"><h3>hottest rows (last window)<span class="legend-note run-a-only" hidden></span></h3>
    <div class="table-scroll" tabindex="0" role="region" aria-label="hottest rows (scrolls sideways on a narrow screen)"><table class="hottest" aria-label="the rows whose locks were busiest in the last window">
      <thead><tr><th scope="col">table</th><th scope="col">key</th><th scope="col" title="fraction of the time the row's lock was held">lock busy</th>
        <th scope="col" title="lock requests that had to wait, per second">waits / s</th><th scope="col" title="requests waiting on average">waiters</th>
        <th scope="col" title="mean wait of the requests that waited">mean wait</th>
        <th scope="col" title="the row's wait split by the waiting and the holding transaction and statement">who waits for whom</th></tr></thead>
      <tbody></tbody></table></div>
    <div class="legend-note">Rows locked most often (64 tracked), ranked by lock busy time; a row locked once, with nobody waiting, is not listed.</div></div>
</div>
<div class="meter"><span data-metric="simulatedSeconds">0.0</span> simulated s · <span data-metric="simPerWall">–</span> simulated s per wall s ·
  <span data-metric="eventsPerSecond">–</span> events/s · <span class="version"></span></div>
<div class="explain full-only">
  <h2>What you are looking at</h2>
  <p class="running-now"></p>
  <p class="server-only" data-engine="postgres">A simulated PostgreSQL server: its backends share the server's cores; a contended UPDATE waits on the
  holder's transaction, and when it commits (after its WAL flush, which a group of commits shares) every waiter wakes and
  re-checks the row: one wins, the others wait again. With few clients the row hands over once per flush; with many, the
  woken waiters' re-checks take the CPU and throughput falls. Watch the hot row lock busy figure and the server's load as you
  add clients (docs/MODEL.md §11 says how it was calibrated against a real PostgreSQL 15).</p>
  <p class="server-only" data-engine="innodb">A simulated MySQL server with InnoDB: its threads share the server's cores; a
  contended UPDATE queues for the row's record lock, and each new wait first searches for a deadlock. A
  commit releases its locks at once and then waits for the redo log's flush, which a group of commits shares, so the row
  hands over faster than the log flushes. Each hand-over passes over the row's whole queue and wakes one waiter: with many
  clients the pass grows and throughput falls slowly. Watch the hot row lock busy figure and the server's load as you add
  clients (docs/MODEL.md §11 says how it was calibrated against a real MariaDB 10.11).</p>
  <p class="server-only" data-engine="raft">A simulated Raft-replicated range cluster in the style of CockroachDB: each range's
  leaseholder locks a row and proposes each write to its replicas' logs; the write is replicated once a majority has flushed it.
  A one-round transaction commits in that round; any other tells its client at once and then resolves each intent with one
  more Raft round before the lock goes. A waiter that waits past the push delay pushes the holder and takes the row only after
  a round trip and a flush: past it, hand-overs slow and waits grow. The figures here are set from published ones, not
  measured (docs/MODEL.md §11).</p>
  <p class="ndb-only" data-engine="ndb">A simulated MySQL Cluster (NDB): data nodes in node groups, each holding replicas of partitions; clients run transactions
  whose every row operation travels as messages through a transaction coordinator (TC), the primary replica and its backup,
  and commits with two-phase commit. Nothing here is a formula: throughput, load and latency come out of messages waiting
  for CPU threads, for the network, and for row locks.</p>
  <p><b>The bug (MySQL #39267, 2008).</b> A table without a primary key gets a hidden key. Each value came from one counter
  row per table in <code>SYSTAB_0</code>, fetched with cache size 1: every insert first ran its own committed transaction that
  updated that single row, holding its lock for a whole two-phase commit. All inserts of the cluster queued on that one lock.
  With the cache at 1, watch the <em>hot row lock busy</em> figure (the counter row's) sit at 100% and the node holding the row (●) glow; TPM is
  capped near the reported ${k(REPORTED.cacheOneTpm)}. Turn the cache size up to 1000: the row goes idle, and DBT2 reaches about ${k(REPORTED.cacheThousandTpm)} TPM.</p>
  <p>The refill also ran without a transaction hint, so its coordinator was picked round robin: TC work lands on nodes that
  otherwise have nothing to do (see the TC bars with one warehouse). <em>Compare</em> runs two settings side by side;
  <em>Sweep</em> shows throughput against cache size, node count or each id strategy.</p>
  <p><b>Other ways to hand out ids.</b> Ids can also come from one allocator service, or from the clock, the node and a
  sequence; rows can be placed by key range instead of hash, and an id can become a key as is, with shard bits on top, or
  bit-reversed. Pick them above: with range partitioning the heatmap shows partitions, and sequential keys draw the
  tail hotspot as one bright row.</p>
  <p><b>Go back, branch, be guided.</b> Drag the timeline under the charts to any moment already run; <em>Fork</em> there
  with another cache size (or any knob marked live) to see a second future beside the first. <em>Take the tour</em> walks
  the whole story in nine chapters, each with its numbers measured live. Slow the speed below 1/100 of real time to
  watch every signal cross the network in the cluster view.</p>
</div>
<div class="compact-only legend-note">hotrow: one counter row per table, locked for every insert when the id cache is 1.</div>
`;
