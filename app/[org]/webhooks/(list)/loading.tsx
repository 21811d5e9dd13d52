// Page segments each have their own loading boundary, below the layouts that decide a 404 (see app/[org]/layout.tsx).
export { PageLoading as default } from "@/components/page-loading";
