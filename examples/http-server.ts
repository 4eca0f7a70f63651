/**
 * A planner as code behind HTTP: `npx tsx examples/http-server.ts [--port 9000]`, then
 * `apb run --model http:http://127.0.0.1:9000/plan`. apb POSTs each case as JSON and reads the
 * answer from the reply body (CONTRACT.md, Model specs). It serves the keyword planner of
 * planner.ts; put your own agent behind the same route. It prints `listening on URL` once ready.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { planCase, type PlanRequest } from './planner.js';

const MAX_BODY = 32 * 1024 * 1024;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) request.destroy(new Error('request body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const server = createServer(async (request, response) => {
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method !== 'POST' || request.url !== '/plan')
    return reply(404, { error: 'POST /plan only' });
  let planRequest: PlanRequest;
  try {
    planRequest = JSON.parse(await readBody(request)) as PlanRequest;
  } catch (error) {
    return reply(400, { error: `not a JSON request: ${(error as Error).message}` });
  }
  try {
    reply(200, planCase(planRequest));
  } catch (error) {
    // A case the planner cannot handle is that case's error (200 with an error field).
    reply(200, { id: planRequest.id, error: (error as Error).message });
  }
});

const portFlag = process.argv.indexOf('--port');
const port = portFlag >= 0 ? Number(process.argv[portFlag + 1]) : 9000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(`listening on http://127.0.0.1:${bound}/plan`);
});
