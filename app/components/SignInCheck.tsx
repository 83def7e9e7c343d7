import { Spinner } from "./Spinner";

/** Covers the page while /admin's sign-in check is under way (SPEC: a loading indicator while the sign-in state is checked). */
export function SignInCheck({ id, hidden }: { id?: string; hidden?: boolean }) {
  return (
    <div id={id} hidden={hidden} className="fixed inset-0 z-50 flex items-center justify-center bg-white/85">
      <p role="status" className="flex items-center gap-3 text-lg font-medium text-slate-800">
        <Spinner className="size-6 text-blue-700" />
        Checking sign-in...
      </p>
    </div>
  );
}
