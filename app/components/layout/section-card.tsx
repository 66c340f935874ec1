import type * as React from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

/**
 * A card with an h2 title (and an optional line under it) above its content. `large` for the few
 * cards a page is made of, such as the ways to contact us.
 */
export function SectionCard({
  title,
  subtitle,
  large = false,
  className,
  contentClassName,
  children,
}: {
  title: string;
  subtitle?: React.ReactNode;
  large?: boolean;
  className?: string;
  contentClassName?: string;
  children: React.ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>
          <h2 className={large ? "text-xl" : "text-lg"}>{title}</h2>
        </CardTitle>
        {subtitle ? (
          <p className={large ? "text-base text-muted-foreground" : "text-sm text-muted-foreground"}>{subtitle}</p>
        ) : null}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
