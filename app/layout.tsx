import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import './globals.css';

const description = 'Play, inspect and replay verifiable e-commerce agent episodes';

// Icons and the Open Graph image live in public/ (their sources: scripts/assets/*.html, rendered by chromium).
export const metadata: Metadata = {
  metadataBase: new URL(process.env.SITE_URL ?? 'http://localhost:3000'),
  title: 'EcomRLVE Playground',
  description,
  icons: {
    icon: [
      { url: '/icon.svg', type: 'image/svg+xml' },
      { url: '/icon.png', type: 'image/png', sizes: '512x512' },
    ],
    apple: '/icon.png',
  },
  openGraph: {
    title: 'EcomRLVE Playground',
    description,
    type: 'website',
    images: [
      {
        url: '/og.png',
        width: 1200,
        height: 630,
        alt: 'EcomRLVE Playground: eight shopping-assistant environments with verifiable rewards',
      },
    ],
  },
  twitter: { card: 'summary_large_image', images: ['/og.png'] },
};

const NAV = [
  ['/', 'New episode'],
  ['/episodes', 'Episodes'],
  ['/curriculum', 'Curriculum'],
  ['/models', 'Models'],
  ['/runs', 'Runs'],
] as const;

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
              {NAV.map(([href, label]) => (
                <Link key={href} href={href} className="text-sm text-slate-600 hover:text-slate-900">
                  {label}
                </Link>
              ))}
            </nav>
          </header>
          <main className="mx-auto max-w-7xl px-6 py-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
