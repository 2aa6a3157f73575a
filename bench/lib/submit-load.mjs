// Review submissions from many clients in its own process: `node submit-load.mjs <json>` with
// {url, tokens: string[], proposalIds: number[], perClient: number, seconds}. Client i (one per token) posts reviews of
// proposals perClient·i … in turn, one request at a time, until the time is up or its share is done. Prints JSON:
// {latencies, statuses, accepted: [{client, proposal, row_id}], seconds}.
import http from 'node:http';

const { url, tokens, proposalIds, perClient, seconds } = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: tokens.length });
const note = 'The proposal explains the problem well, the milestones are concrete and the budget is itemised by role. '.repeat(3);
const latencies = [];
const statuses = {};
const accepted = [];
const started = performance.now();
const end = started + seconds * 1000;

function post(token, body) {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode, text }));
      },
    );
    request.on('error', () => resolve({ status: 0, text: '' }));
    request.end(JSON.stringify(body));
  });
}

async function client(i) {
  for (let k = 0; k < perClient && performance.now() < end; k += 1) {
    const proposal = proposalIds[(i * perClient + k) % proposalIds.length];
    const body = {
      new_proposal_review: {
        proposal_id: proposal,
        impact_alignment_rating_given: 1 + ((i + k) % 5),
        impact_alignment_note: note,
        feasibility_rating_given: 1 + ((i + 2 * k) % 5),
        feasibility_note: note,
        auditability_rating_given: 1 + ((i + 3 * k) % 5),
        auditability_note: note,
      },
    };
    const t = performance.now();
    const { status, text } = await post(tokens[i], body);
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status === 201) {
      latencies.push(performance.now() - t);
      accepted.push({ client: i, proposal, row_id: JSON.parse(text).row_id });
    }
  }
}
await Promise.all(tokens.map((_, i) => client(i)));
agent.destroy();
process.stdout.write(JSON.stringify({ latencies, statuses, accepted, seconds: (performance.now() - started) / 1000 }));
