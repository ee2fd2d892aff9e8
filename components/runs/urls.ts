// The run and group views' URLs: /runs/<run key>[?vs=&stepA=&stepB=&by=] and /runs/<run key>/groups/<group slug>.
export const runViewUrl = (run: string, params?: Record<string, string | number | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== '') p.set(k, String(v));
  return `/runs/${encodeURIComponent(run)}${p.size ? `?${p}` : ''}`;
};

export const groupViewUrl = (run: string, slug: string) =>
  `/runs/${encodeURIComponent(run)}/groups/${encodeURIComponent(slug)}`;
