import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useUserSession } from '../stores/userSession';

/** Routes behind sign-in: without a session the user goes to /auth and comes back afterwards. */
export function RequireAuth() {
  const member = useUserSession((state) => state.member);
  const location = useLocation();
  if (!member) return <Navigate to="/auth" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return <Outlet />;
}
