import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import './globals.css';

export const metadata: Metadata = {
  title: 'EcomRLVE Playground',
  description: 'Play, inspect and replay verifiable e-commerce agent episodes',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <Providers>
          <header className="border-b border-slate-200 bg-white">
            <nav className="mx-auto flex max-w-7xl items-center gap-6 px-6 py-3">
              <Link href="/" className="font-semibold tracking-tight text-slate-900">
                EcomRLVE <span className="font-normal text-slate-500">Playground</span>
              </Link>
              <Link href="/" className="text-sm text-slate-600 hover:text-slate-900">
                New episode
              </Link>
              <Link href="/episodes" className="text-sm text-slate-600 hover:text-slate-900">
                Episodes
              </Link>
              <Link href="/curriculum" className="text-sm text-slate-600 hover:text-slate-900">
                Curriculum
              </Link>
              <Link href="/models" className="text-sm text-slate-600 hover:text-slate-900">
                Models
              </Link>
              <Link href="/runs" className="text-sm text-slate-600 hover:text-slate-900">
                Runs
              </Link>
            </nav>
          </header>
          <main className="mx-auto max-w-7xl px-6 py-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
