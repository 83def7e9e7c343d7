/** POSTs JSON to one of the passkey endpoints; the answer's body, or its `error` as a sentence. */
export async function postPasskeyStep<T>(url: string, body: Record<string, unknown>): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const value = (await response.json().catch(() => ({}))) as T & { error?: string };
    if (!response.ok) return { ok: false, message: value.error ?? `The server answered ${response.status}. Try again.` };
    return { ok: true, value };
  } catch {
    return { ok: false, message: "The server could not be reached. Check the connection and try again." };
  }
}
