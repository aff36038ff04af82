/**
 * Documented mechanisms that write clientConfig.caBundle into every webhook of the object they
 * annotate: cert-manager's CA injector and OpenShift's service CA operator. Any project can use
 * them; the annotation is the evidence. Read by ca-bundle (on the object) and by
 * src/parse/kustomize-patches.ts (a patch or replacement that writes one).
 */
export const INJECTION_ANNOTATIONS: readonly { readonly key: string; readonly value?: string }[] = [
  { key: 'cert-manager.io/inject-ca-from' },
  { key: 'cert-manager.io/inject-ca-from-secret' },
  { key: 'cert-manager.io/inject-apiserver-ca', value: 'true' },
  { key: 'service.beta.openshift.io/inject-cabundle', value: 'true' },
];

/** Whether a patch's text, or a replacement's field path, names a CA-injection annotation or caBundle itself. */
export function writesCaBundle(text: string): boolean {
  return text.includes('caBundle') || INJECTION_ANNOTATIONS.some(({ key }) => text.includes(key));
}
