import { useNavigation } from "react-router";
import { tabOfPath, type AdminTabId } from "./tabs";
import { useDelayedFlag } from "./use-delayed-flag";

/** Quick answers should not flash a loading message; slow ones should say so. */
const SLOW_MS = 150;

/** The dashboard tab a navigation is on its way to, once it has taken long enough to say so; else undefined. */
export function useSlowTab(): AdminTabId | undefined {
  const navigation = useNavigation();
  const target = navigation.state === "loading" ? tabOfPath(navigation.location.pathname) : undefined;
  return useDelayedFlag(target !== undefined, SLOW_MS) ? target : undefined;
}
