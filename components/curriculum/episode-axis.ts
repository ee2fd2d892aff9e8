// The x axis both curriculum charts share: episode index from 0, whole numbers, small grey ticks.
export const EPISODE_X_AXIS = {
  dataKey: 'episode',
  type: 'number',
  domain: [0, 'dataMax'],
  allowDecimals: false,
  tick: { fontSize: 11, fill: '#64748b' },
  label: { value: 'episode', position: 'insideBottom', offset: -10, fontSize: 11, fill: '#64748b' },
} as const;

export const CHART_MARGIN = { top: 12, right: 24, bottom: 18, left: 0 } as const;
