// Spawned by probeMachine (bench/lib/procs.ts) alone on the server's CPU: one fixed piece of work
// (parsing and serialising a token-sized JSON answer, as a gateway does) done over and over, and how many pieces
// each slice of time completed. It reads no socket and waits for nothing, so on a steady machine
// every slice counts the same; what the counts swing is the machine's own speed.
// Arguments: warm-up seconds (the JIT settles), measured seconds, slice ms. Prints the counts as JSON.
const [warmupSeconds, seconds, sliceMs] = process.argv.slice(2).map(Number);
const answer = JSON.stringify({
  data: {
    brc20Token: {
      token: { ticker: 'ordi', maxSupply: '21000000.000000000000000000', deployTimestamp: 1678248991000 },
      holders: Array.from({ length: 20 }, (_, i) => ({
        address: `bc1q${'x'.repeat(38)}${i}`,
        overallBalance: `${i}12345678.901234567890123456`,
      })),
    },
  },
});
const piece = () => JSON.stringify(JSON.parse(answer)).length;
const warmEnd = performance.now() + warmupSeconds * 1000;
while (performance.now() < warmEnd) piece();
const slices = Math.max(1, Math.round((seconds * 1000) / sliceMs));
const counts = [];
let sliceEnd = performance.now() + sliceMs;
let done = 0;
while (counts.length < slices) {
  for (let i = 0; i < 20; i++) piece();
  done += 20;
  if (performance.now() >= sliceEnd) {
    counts.push(done);
    done = 0;
    sliceEnd += sliceMs;
  }
}
process.stdout.write(JSON.stringify(counts));
