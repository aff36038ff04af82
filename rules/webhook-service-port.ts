/**
 * A webhook's `clientConfig.service.port` (443 when omitted) is not a port of the Service it
 * names, and that Service is in the run: the API server looks the port up among the Service's
 * `spec.ports[].port` (not `targetPort`) and fails every call with "no service port N found"
 * (src/match/services.ts). Under Fail every matching request is rejected; under Ignore the
 * webhook never runs, so every matching request passes without it: error either way.
 *
 * The run reads Services only from the inputs that hold a webhook configuration, and a Service
 * that is not there, has no namespace written, is patched, or is of type ExternalName (whose
 * port is not looked up) gives nothing: absence is never a finding.
 */
import { isApiServerItself, lacksPort, webhookServices } from '../src/match/services.js';
import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { elideMiddle, joinCapped } from '../src/text/list.js';

type MessageId = 'noSuchPort' | 'noPorts';

const NO_SUCH_PORT = 'webhook "{{webhook}}" calls port {{port}} of Service {{service}}, which has {{ports}}: every call fails';

/** What a message may spend on the names, the port and the ports: 160 less its fixed text, 2 to spare. */
const MESSAGE_ROOM = 160 - NO_SUCH_PORT.replace(/\{\{\w+\}\}/g, '').length - 2;

/** The webhook's and the Service's names, the longer one elided in the middle when both do not fit in `room`. */
function fitNames(webhook: string, service: string, room: number): { webhook: string; service: string } {
  if (webhook.length + service.length <= room) return { webhook, service };
  const half = Math.floor(room / 2);
  if (service.length <= half) return { webhook: elideMiddle(webhook, room - service.length), service };
  if (webhook.length <= half) return { webhook, service: elideMiddle(service, room - webhook.length) };
  return { webhook: elideMiddle(webhook, half), service: elideMiddle(service, room - half) };
}

export const rule = defineObjectRule({
  meta: {
    id: 'webhook-service-port',
    title: 'A webhook calls a port its Service does not have: every call fails',
    aboutCalls: true,
    aboutSettings: true,
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      noSuchPort: NO_SUCH_PORT,
      noPorts: 'webhook "{{webhook}}" calls port {{port}} of Service {{service}}, which has no ports: every call fails',
    },
    help: 'The API server resolves clientConfig.service.port (443 when omitted) against the Service\'s spec.ports[].port, not targetPort; with no such port it fails every call (rejected under Fail, the webhook skipped under Ignore). Set clientConfig.service.port to one of the Service\'s ports, or add that port to the Service.',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = [];
        for (const entry of webhooksOf(object)) {
          const found = webhookServices(run, entry.webhook);
          if (found === undefined || isApiServerItself(found.reference)) continue;
          const { reference, services } = found;
          // Every copy of the Service in the run must lack the port (a run may hold several renderings).
          if (!services.every((service) => lacksPort(service, reference.port) === true)) continue;
          const ports = [...new Set(services.flatMap((service) => service.ports!.map((port) => port.port!)))].sort((a, b) => a - b);
          const portsText = `${ports.length === 1 ? 'port' : 'ports'} ${joinCapped(ports.map(String), 3, { width: 14 })}`;
          const names = fitNames(entry.label, `${reference.namespace}/${reference.name}`, MESSAGE_ROOM - String(reference.port).length - portsText.length);
          const at = [...entry.path, 'clientConfig', 'service'];
          const portPath = [...at, 'port'];
          violations.push({
            messageId: ports.length === 0 ? 'noPorts' : 'noSuchPort',
            data: {
              webhook: names.webhook,
              port: reference.port,
              service: names.service,
              ports: portsText,
            },
            path: isDefaulted(object, portPath) ? at : portPath,
          });
        }
        return violations;
      },
    };
  },
});
