// One colour per environment, shared by the chart and the table.
import type { EnvId } from '@/server/engine/types';

export const ENV_COLORS: Record<EnvId, string> = {
  PD: '#0284c7',
  SUB: '#7c3aed',
  CART: '#059669',
  RETURN: '#d97706',
  STATUS: '#db2777',
  POLICY: '#475569',
  BUNDLE: '#65a30d',
  JOURNEY: '#dc2626',
};
