import type { Metadata } from "next";
import { HydrationMark } from "@/components/hydration-mark";
import "./globals.css";

export const metadata: Metadata = {
  // Each page names itself ("API keys · Memory Gateway"): tabs and history entries are told apart.
  title: { template: "%s · Memory Gateway", default: "Memory Gateway" },
  description: "Self-hostable, multi-tenant memory for AI applications",
  icons: { icon: "/favicon.svg" },
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        {children}
        <HydrationMark />
      </body>
    </html>
  );
}
