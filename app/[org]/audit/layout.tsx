// The audit log is for owners and admins: a member gets a 404 page.
import { roleGate } from "@/components/permission-gate";

export default roleGate((role) => role !== "member");
