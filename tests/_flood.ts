// A hostile client, run as a process of its own so that the connections it
// holds count against its own file descriptors, not the test's:
//
//   deno run -A tests/_flood.ts PORT COUNT idle|slow [--once]
//
// It holds COUNT connections to 127.0.0.1:PORT. `idle` ones send nothing;
// `slow` ones (slowloris) send the start of a request header and then one
// more byte every second, never finishing it. A connection the server
// closes is opened again at once, unless `--once`. Every 250 ms it prints
// one JSON line: `{ "open": <connected now>, "opened": <connections made>,
// "closed": <closed by the server> }`.

const SLOW_START = "POST /beeuni/tools/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n";
const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts of one flood. */
export interface FloodStats {
  /** Connections open now. */
  open: number;
  /** Connections made so far. */
  opened: number;
  /** Connections the server closed so far. */
  closed: number;
}

async function hold(
  conn: Deno.Conn,
  slow: boolean,
): Promise<void> {
  let timer: ReturnType<typeof setInterval> | undefined;
  if (slow) {
    const bytes = encoder.encode(SLOW_START + "X-Slow: " + "a".repeat(4000));
    let sent = SLOW_START.length;
    await conn.write(bytes.subarray(0, sent)).catch(() => {});
    timer = setInterval(() => {
      if (sent < bytes.length) {
        conn.write(bytes.subarray(sent, ++sent)).catch(() => {});
      }
    }, 1000);
  }
  try {
    const buffer = new Uint8Array(4096);
    while ((await conn.read(buffer)) !== null) { /* drain what it says */ }
  } catch {
    // Reset by the server: closed all the same.
  } finally {
    clearInterval(timer);
    try {
      conn.close();
    } catch { /* already closed */ }
  }
}

async function flood(
  port: number,
  count: number,
  slow: boolean,
  once: boolean,
): Promise<void> {
  const stats: FloodStats = { open: 0, opened: 0, closed: 0 };
  setInterval(() => console.log(JSON.stringify(stats)), 250);
  const one = async () => {
    do {
      let conn: Deno.Conn;
      try {
        conn = await Deno.connect({ hostname: "127.0.0.1", port });
      } catch {
        await sleep(100);
        continue;
      }
      stats.open++;
      stats.opened++;
      await hold(conn, slow);
      stats.open--;
      stats.closed++;
    } while (!once);
  };
  await Promise.all(Array.from({ length: count }, one));
  console.log(JSON.stringify(stats));
  Deno.exit(0);
}

if (import.meta.main) {
  const [port, count, mode] = Deno.args;
  await flood(
    Number(port),
    Number(count),
    mode === "slow",
    Deno.args.includes("--once"),
  );
}
