// Webhooks are managed by the roles with WEBHOOK_MANAGE (owners and admins): a member gets 404 pages.
import { permissionGate } from "@/components/permission-gate";

export default permissionGate("WEBHOOK_MANAGE");
