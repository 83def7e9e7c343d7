import { createContext } from "react";

/**
 * The site's stylesheet as text, given by the server (entry.server.tsx) to
 * the pages that inline it rather than link it: the landing page (decision 017).
 */
export const InlineStyleContext = createContext<string | undefined>(undefined);
