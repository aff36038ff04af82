import { loadCelSync } from './dist/src/cel/library.js';
import { conditionsOutcome, validationsOutcome, SYSTEM_REQUESTERS } from './dist/src/match/system-requests.js';
import { RunMemo } from './dist/src/run-scope.js';
console.log(loadCelSync());
const scope = { memo: new RunMemo() };
const cond = [{ expression: "request.userInfo.username == 'system:kube-scheduler' || object.metadata.?labels[?'k8s-app'] == optional.of('kube-dns')" }];
for (const r of SYSTEM_REQUESTERS) {
  const req = { group: '', resource: 'pods', subresource: '', operation: 'CREATE', namespace: 'kube-system', requester: r };
  console.log(r.username, conditionsOutcome(scope, cond, [req]), validationsOutcome(scope, ["request.userInfo.username == 'system:kube-scheduler'"], [], [req]));
}
