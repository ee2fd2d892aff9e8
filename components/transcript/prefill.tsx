'use client';
// Lets result cards offer "use this" buttons (prefill a tool form) in the playground only.
import { createContext, useContext } from 'react';

export interface ToolPrefill {
  prefill(toolName: string, args: Record<string, unknown>): void;
  /** tool names the episode offers */
  tools: readonly string[];
}

export const ToolPrefillContext = createContext<ToolPrefill | null>(null);

export function usePrefill(): ToolPrefill | null {
  return useContext(ToolPrefillContext);
}
