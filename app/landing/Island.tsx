import { useContext, type ComponentType } from "react";
import { UNSAFE_FrameworkContext } from "react-router";
import { jsonForScript } from "~/platform/http/json-script";
import { ISLANDS, ISLAND_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE, type IslandName, type IslandProps } from "./islands";

/**
 * Server-renders one island and writes its props beside it as JSON, for
 * islands.client.tsx to hydrate it with exactly the same props. The component
 * is rendered from the props as they come back from JSON, so the server's HTML
 * and the browser's first render cannot differ (undefined fields, dates).
 * `display: contents` keeps the wrapper out of the layout.
 */
export function Island<N extends IslandName>({ name, props }: { name: N; props: IslandProps<N> }) {
  const nonce = useContext(UNSAFE_FrameworkContext)?.nonce;
  const json = jsonForScript(props);
  const Component = ISLANDS[name] as ComponentType<IslandProps<N>>;
  const attributes = { [ISLAND_ATTRIBUTE]: name };
  const propsAttributes = { [ISLAND_PROPS_ATTRIBUTE]: name };
  return (
    <>
      <div {...attributes} className="contents">
        <Component {...(JSON.parse(json) as IslandProps<N>)} />
      </div>
      {/* The browser hides a nonce from the DOM and React Router has none to give in the browser: not a mismatch. */}
      <script
        type="application/json"
        {...propsAttributes}
        nonce={nonce}
        suppressHydrationWarning
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON for a script element, escaped for it by jsonForScript (no "<", no line separators).
        dangerouslySetInnerHTML={{ __html: json }}
      />
    </>
  );
}
