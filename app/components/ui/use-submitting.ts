import { useLocation, useNavigation } from "react-router";

/** Whether this page's form is being posted, until the page that answers it has loaded. */
export function useSubmitting(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return navigation.formMethod === "POST" && navigation.formAction === location.pathname;
}
