// Integrations are managed by the roles with INTEGRATION_MANAGE (owners and admins): a member gets a 404 page.
import { permissionGate } from "@/components/permission-gate";

export default permissionGate("INTEGRATION_MANAGE");
